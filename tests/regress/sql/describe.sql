-- \d and \d+ on tables with every column feature tupledb has: NOT NULL,
-- DEFAULT, CHECK (column and table constraints), varchar(n), char(n),
-- numeric(p,s).  psql answers them with its pg_catalog queries
-- (through tupledb serve), the shell with its own.
CREATE TABLE items (
    id integer NOT NULL,
    name varchar(20) NOT NULL DEFAULT 'unnamed',
    code char(3),
    price numeric(8,2) DEFAULT 0 CHECK (price >= 0),
    qty bigint DEFAULT 1 + 1,
    rate numeric CHECK (rate > -1.5),
    note text DEFAULT 'it''s',
    flag boolean DEFAULT true,
    made date DEFAULT '2024-01-31',
    small smallint CHECK (small BETWEEN 1 AND 10),
    CONSTRAINT items_name_check CHECK (length(name) > 1 AND name <> 'x'),
    CONSTRAINT qty_vs_id CHECK (qty IS NULL OR qty >= id)
);
\d items
\d+ items
CREATE TABLE "Mixed Case" ("Col A" int CHECK ("Col A" <> 0), b real DEFAULT 1.5, c double precision, d timestamp DEFAULT now());
\d "Mixed Case"
\d+ "Mixed Case"
CREATE TABLE plain (x int);
\d plain
\d+ plain
-- the stored expressions still work
INSERT INTO items (id, price, rate, small) VALUES (1, 2.5, 0, 3);
SELECT id, name, code, price, qty, note, flag, made FROM items;
INSERT INTO items (id, price) VALUES (2, -1);
INSERT INTO items (id, name) VALUES (3, 'x');
\d nosuch
-- keywords and odd names as columns, functions printed back
CREATE TABLE kw ("order" int CHECK ("order" > 0), "user" text DEFAULT left('abc', 2), "Q" int DEFAULT -5 CHECK ("Q" + "order" < 100), w varchar(5) CHECK (upper(w) <> 'X'));
\d kw
INSERT INTO kw ("order", w) VALUES (1, 'a');
SELECT * FROM kw;
INSERT INTO kw ("order") VALUES (0);
-- conditional forms
CREATE TABLE z (a int DEFAULT COALESCE(NULL, 3), b int CHECK (b IS DISTINCT FROM 5), c int CHECK (NULLIF(c, 1) > 0), d int CHECK (GREATEST(d, 1) < 10), e text DEFAULT COALESCE(NULL, 'q'), f int CHECK (COALESCE(f, 0) + 1 > 0 AND f IS NOT DISTINCT FROM 3));
\d z
INSERT INTO z (b, c, d, f) VALUES (1, 2, 3, 3);
INSERT INTO z (f) VALUES (4);
SELECT * FROM z;
-- the "Indexes:" footer: primary key, unique constraints, unique and
-- partial / expression / INCLUDE / NULLS NOT DISTINCT indexes, before CHECK
CREATE TABLE dix (a int PRIMARY KEY, b text UNIQUE, c int, d int CHECK (d > 0));
CREATE INDEX ON dix (c DESC NULLS LAST) INCLUDE (d) WHERE c > 0;
CREATE UNIQUE INDEX dix_lower ON dix (lower(b));
CREATE UNIQUE INDEX dix_nnd ON dix (c) NULLS NOT DISTINCT;
ALTER TABLE dix ADD CONSTRAINT dix_cd UNIQUE (c, d);
\d dix
CREATE TABLE dix2 (x int);
CREATE INDEX dix2_x ON dix2 (x);
\d dix2
DROP TABLE dix, dix2;
