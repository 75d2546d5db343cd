-- Index and key DDL that fails before any index contents are needed:
-- PostgreSQL's errors, and nothing left behind (issue 22).
\set VERBOSITY default
CREATE TABLE ix (a int, b text, c int);
CREATE INDEX ON ix USING hash2 (a);
CREATE INDEX ON ix (z);
CREATE INDEX ON ix (a, z);
CREATE INDEX ON ix ((random()::int));
CREATE INDEX ON ix ((now()::date));
CREATE INDEX ON ix (a) WHERE random() > 0.5;
CREATE INDEX ON ix (ctid);
CREATE INDEX ON pg_class (relname);
CREATE INDEX ON nosuch (a);
CREATE TABLE ix2 (a int PRIMARY KEY, b int PRIMARY KEY);
CREATE TABLE ix3 (a int PRIMARY KEY, PRIMARY KEY (a));
CREATE TABLE ix4 (a int, PRIMARY KEY (a), PRIMARY KEY (a));
DROP INDEX nosuch;
DROP INDEX IF EXISTS nosuch;
DROP INDEX IF EXISTS nosuch1, nosuch2;
DROP INDEX ix;
ALTER INDEX nosuch RENAME TO x;
ALTER INDEX IF EXISTS nosuch RENAME TO x;
ALTER TABLE ix DROP CONSTRAINT nosuch;
ALTER TABLE ix DROP CONSTRAINT IF EXISTS nosuch;
ALTER TABLE ix ADD PRIMARY KEY (z);
ALTER TABLE ix ADD UNIQUE (a, z);
REINDEX INDEX nosuch;
REINDEX TABLE nosuch;
-- nothing was made
SELECT count(*) FROM pg_index WHERE indrelid = 'ix'::regclass;
SELECT relname FROM pg_class WHERE relname LIKE 'ix%' ORDER BY 1;
SELECT count(*) FROM pg_constraint WHERE conrelid = 'ix'::regclass;
SELECT amname, amtype FROM pg_am WHERE amname IN ('heap', 'btree')
 ORDER BY oid;
SELECT relhasindex FROM pg_class WHERE relname = 'ix';
DROP TABLE ix;
