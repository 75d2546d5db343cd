-- What users and clients see of indexes and keys, without reading an
-- index's contents (issue 22): \d with its "Indexes:" section, \d of an
-- index, \di, pg_get_indexdef, pg_get_constraintdef, pg_indexes,
-- relhasindex, an index used as a table, ADD PRIMARY KEY over NULLs.
CREATE TABLE t (a int PRIMARY KEY, b text UNIQUE, c int, d int, e text);
CREATE INDEX ON t (c DESC NULLS LAST) INCLUDE (d) WHERE c > 0;
CREATE INDEX ON t (lower(e));
\d t
\d+ t
\d t_pkey
\d t_lower_idx
\d+ t_c_d_idx
-- unaligned, so a runner can replace the Owner field (the bootstrap
-- role's name differs)
\pset format unaligned
\di
\pset format aligned
SELECT * FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname;
SELECT c.relname, pg_get_indexdef(c.oid), pg_get_indexdef(c.oid, 0, true)
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE i.indrelid = 't'::regclass ORDER BY 1;
SELECT conname, contype, pg_get_constraintdef(oid),
       pg_get_constraintdef(oid, true)
  FROM pg_constraint WHERE conrelid = 't'::regclass ORDER BY 1;
-- columns, quoting, options, expressions, NULLS NOT DISTINCT
CREATE TABLE x ("Col" int, b int, "select" text);
CREATE UNIQUE INDEX x_e ON x ((b + 1), "Col", upper("select"),
                              (b > 0 AND "Col" < 3))
  NULLS NOT DISTINCT WHERE b > 0 AND "Col" < 3;
CREATE INDEX x_f ON x (b NULLS FIRST, "Col" DESC NULLS FIRST, (b * 2) DESC);
SELECT pg_get_indexdef('x_e'::regclass);
SELECT pg_get_indexdef('x_e'::regclass, 0, true);
SELECT i, pg_get_indexdef('x_e'::regclass, i, true),
       pg_get_indexdef('x_e'::regclass, i, false)
  FROM generate_series(-1, 5) i ORDER BY i;
SELECT pg_get_indexdef('x_f'::regclass), pg_get_indexdef('x_f'::regclass, 0, true);
ALTER TABLE x ADD CONSTRAINT x_u UNIQUE NULLS NOT DISTINCT (b, "Col")
  INCLUDE ("select");
ALTER TABLE x ADD PRIMARY KEY ("Col") INCLUDE (b);
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true)
  FROM pg_constraint WHERE conrelid = 'x'::regclass ORDER BY 1;
\d x
\d x_e
DROP TABLE x;
-- relhasindex: set by CREATE INDEX
SELECT relname, relhasindex FROM pg_class
 WHERE relname = 't' OR relname LIKE 't\_%' ORDER BY 1;
-- an index is not a table
SELECT * FROM t_pkey;
INSERT INTO t_pkey VALUES (1);
UPDATE t_pkey SET a = 1;
DELETE FROM t_pkey;
COPY t_pkey TO stdout;
TRUNCATE t_pkey;
SELECT * FROM t JOIN t_pkey ON true;
-- ADD PRIMARY KEY over NULLs: 23502 for the first NULL key column of
-- the first such row, and nothing is left
CREATE TABLE n (a int, b int);
INSERT INTO n VALUES (1, NULL), (NULL, 2), (3, 3);
ALTER TABLE n ADD PRIMARY KEY (b);
ALTER TABLE n ADD PRIMARY KEY (a, b);
ALTER TABLE n ADD CONSTRAINT k PRIMARY KEY (a);
\d n
DELETE FROM n WHERE a IS NULL;
ALTER TABLE n ADD CONSTRAINT k PRIMARY KEY (a);
\d n
DROP TABLE n;
DROP TABLE t;
