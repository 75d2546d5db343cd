-- psql's \d, \dt, \dt+ (list relations) and \dn on the pg_catalog views.
-- Run through psql -X -a -q; expected/describe_pg15.out is PostgreSQL
-- 15's output (run.sh's header says how to make it), compared with the
-- Owner field replaced (the bootstrap role is named after the OS user).
-- Only tables without unbounded variable-length columns and of at most
-- one page: PostgreSQL gives those a TOAST table and bulk loads a free
-- space map, which tupledb does not have, and both count in Size.
CREATE TABLE d1 (a int NOT NULL DEFAULT 5, b varchar(10), c numeric(8,2) CHECK (c > 0), CONSTRAINT d1_pos CHECK (a > 0));
CREATE TABLE "D2" (x int);
INSERT INTO "D2" VALUES (1);
CREATE TABLE e (y int);
\pset format unaligned
\dt+
\dt+ d*
\d
\dt "D2"
\dt nosuch
\dn
