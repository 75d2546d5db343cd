-- CREATE INDEX, PRIMARY KEY and UNIQUE with their catalog rows, names,
-- psql's descriptions and errors (issue 22).  Needs index contents: the
-- B-tree builds every index here.
CREATE TABLE ci (a int, b text, c int);
INSERT INTO ci VALUES (1, 'x', 1), (2, 'y', 2);
CREATE INDEX ON ci (a);
CREATE INDEX ON ci (a);
CREATE INDEX ON ci (a, b) INCLUDE (c);
CREATE INDEX ON ci ((a + 1));
CREATE INDEX ON ci (lower(b));
CREATE INDEX ON ci ((a), (a + 1), (a + 1));
CREATE INDEX ON ci (a) INCLUDE (a);
CREATE INDEX ON ci (a DESC NULLS LAST, b NULLS FIRST);
CREATE UNIQUE INDEX ci_u ON ci (a) WHERE a > 0;
CREATE INDEX ci_u ON ci (b);
CREATE INDEX IF NOT EXISTS ci_u ON ci (b);
CREATE INDEX aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ON ci (a);
CREATE TABLE bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb (cccccccccccccccccccccccccccccccccc int);
CREATE INDEX ON bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb (cccccccccccccccccccccccccccccccccc);
CREATE INDEX ON bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb (cccccccccccccccccccccccccccccccccc);
SELECT c.relname, i.indnatts, i.indnkeyatts, i.indisunique, i.indisprimary,
       i.indkey, i.indclass, i.indoption, i.indcollation
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indexrelid >= 16384 AND c.relname NOT LIKE 'pg_toast%'
 ORDER BY c.relname;
SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indexrelid >= 16384
   AND indexrelid::regclass::text NOT LIKE 'pg_toast%' ORDER BY indexrelid;
SELECT relname, relkind, relam, relnatts FROM pg_class
 WHERE relkind = 'i' AND oid >= 16384 AND relname NOT LIKE 'pg_toast%'
 ORDER BY relname;
SELECT attname, atttypid::regtype, attnum FROM pg_attribute
 WHERE attrelid = 'ci_a_expr_expr1_idx'::regclass ORDER BY attnum;
\d ci
-- unaligned, so a runner can replace the Owner field (the bootstrap
-- role's name differs)
\pset format unaligned
\di
\pset format aligned
\d ci_a_b_c_idx
ALTER INDEX ci_u RENAME TO ci_u2;
DROP INDEX ci_u2, ci_a_idx;
\d ci
-- keys
CREATE TABLE pk (a int PRIMARY KEY, b int UNIQUE, c int, UNIQUE (b, c));
CREATE TABLE pk2 (a int, b int, CONSTRAINT k PRIMARY KEY (a, b));
\d pk
\d pk2
SELECT conname, contype, conkey, conindid::regclass, condeferrable,
       pg_get_constraintdef(oid)
  FROM pg_constraint WHERE contype IN ('p', 'u') AND conname NOT LIKE 'pg\_%'
 ORDER BY conname;
DROP INDEX pk_pkey;
ALTER INDEX pk_pkey RENAME TO pk_key0;
SELECT conname FROM pg_constraint WHERE conrelid = 'pk'::regclass ORDER BY 1;
ALTER TABLE pk DROP CONSTRAINT pk_key0;
ALTER TABLE pk ADD CONSTRAINT pk_new PRIMARY KEY (a);
ALTER TABLE pk ADD PRIMARY KEY (b);
ALTER TABLE ci ADD UNIQUE (a);
\d pk
-- duplicates
INSERT INTO pk VALUES (1, 1, 1);
INSERT INTO pk VALUES (1, 2, 2);
INSERT INTO pk VALUES (2, 1, 1);
INSERT INTO pk VALUES (NULL, 3, 3);
CREATE UNIQUE INDEX ON ci (c);
INSERT INTO ci VALUES (3, 'z', 1);
CREATE TABLE dup (a int);
INSERT INTO dup VALUES (1), (1);
CREATE UNIQUE INDEX ON dup (a);
ALTER TABLE dup ADD PRIMARY KEY (a);
-- transactions
BEGIN;
CREATE INDEX ci_tx ON ci (b);
ROLLBACK;
SELECT count(*) FROM pg_class WHERE relname = 'ci_tx';
TRUNCATE pk;
SELECT count(*) FROM pk;
INSERT INTO pk VALUES (1, 1, 1);
REINDEX TABLE pk;
REINDEX INDEX pk_new;
SELECT pg_relation_size('pk_new') > 0 AS has_pages;
DROP TABLE pk, pk2, ci, dup, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb;
SELECT count(*) FROM pg_index WHERE indexrelid >= 16384
   AND indexrelid::regclass::text NOT LIKE 'pg_toast%';
