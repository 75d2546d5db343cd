--
-- DDL: CREATE TABLE, DROP TABLE, TRUNCATE; NOT NULL and DEFAULT
--
CREATE TABLE ddl_a (a int, b text);
SELECT * FROM ddl_a;
CREATE TABLE ddl_b (
    id int4 NOT NULL,
    name varchar(10) DEFAULT 'none',
    flag bool DEFAULT true,
    amount numeric(8,2) DEFAULT 0,
    note text
);
INSERT INTO ddl_b (id) VALUES (1);
INSERT INTO ddl_b (id, name, note) VALUES (2, 'two', 'second');
SELECT * FROM ddl_b ORDER BY id;
-- every supported type, under its several spellings
CREATE TABLE ddl_types (
    c1 bool, c2 boolean,
    c3 int2, c4 smallint,
    c5 int4, c6 int, c7 integer,
    c8 int8, c9 bigint,
    c10 numeric, c11 numeric(10,3), c12 decimal(5,1),
    c13 text, c14 varchar(5), c15 character varying(4),
    c16 char(3), c17 character(2), c18 varchar,
    c19 name, c20 oid
);
INSERT INTO ddl_types VALUES (true, false, 1, 2, 3, 4, 5, 6, 7, 8.5, 9.12345, 10.05,
    'text', 'vc', 'cv', 'c', 'ch', 'unbounded', 'nm', 42);
SELECT * FROM ddl_types;
SELECT c16, length(c16), c17 || '|' AS c17 FROM ddl_types;
-- defaults that are expressions
CREATE TABLE ddl_defaults (
    a int DEFAULT 1 + 2,
    b text DEFAULT 'x' || 'y',
    c int8 DEFAULT -1,
    d bool DEFAULT (NOT false),
    e numeric DEFAULT 10 / 4
);
INSERT INTO ddl_defaults DEFAULT VALUES;
INSERT INTO ddl_defaults (a) VALUES (NULL);
SELECT * FROM ddl_defaults ORDER BY a NULLS LAST;
-- identifiers: case folding and quoting
CREATE TABLE "Ddl Mixed" ("Col A" int, colb int, "UPPER" text);
INSERT INTO "Ddl Mixed" VALUES (1, 2, 'u');
SELECT "Col A", COLB, "UPPER" FROM "Ddl Mixed";
SELECT * FROM "ddl mixed";
SELECT "colb" FROM "Ddl Mixed";
SELECT "COLB" FROM "Ddl Mixed";
DROP TABLE "Ddl Mixed";
-- errors
CREATE TABLE ddl_a (x int);
CREATE TABLE IF NOT EXISTS ddl_a (x int);
SELECT * FROM ddl_a;
CREATE TABLE ddl_c (a int, a text);
CREATE TABLE ddl_c (a nosuchtype);
CREATE TABLE ddl_c (a int NOT NULL DEFAULT 'abc');
CREATE TABLE ddl_c (a varchar(0));
-- scale greater than precision is allowed (PostgreSQL 15)
CREATE TABLE ddl_n (a numeric(3,4));
INSERT INTO ddl_n VALUES (0.00123), (-0.00049);
SELECT * FROM ddl_n ORDER BY a;
INSERT INTO ddl_n VALUES (0.1);
-- NOT NULL is enforced
INSERT INTO ddl_b (id) VALUES (NULL);
INSERT INTO ddl_b (name) VALUES ('noid');
SELECT count(*) FROM ddl_b;
-- DROP
DROP TABLE ddl_a;
DROP TABLE ddl_a;
DROP TABLE IF EXISTS ddl_a;
DROP TABLE IF EXISTS ddl_a, ddl_defaults;
SELECT * FROM ddl_defaults;
CREATE TABLE ddl_a (x int);
CREATE TABLE ddl_d (y int);
DROP TABLE ddl_a, ddl_d;
SELECT * FROM ddl_a;
SELECT * FROM ddl_d;
-- a dropped table's name can be reused, with new columns
CREATE TABLE ddl_a (z text NOT NULL DEFAULT 'fresh');
INSERT INTO ddl_a DEFAULT VALUES;
SELECT * FROM ddl_a;
-- TRUNCATE
TRUNCATE ddl_b;
SELECT count(*) FROM ddl_b;
INSERT INTO ddl_b (id) VALUES (3);
SELECT id, name FROM ddl_b;
TRUNCATE TABLE ddl_b, ddl_a;
SELECT count(*) FROM ddl_a;
SELECT count(*) FROM ddl_b;
TRUNCATE nosuchtable;
DROP TABLE nosuchtable;
DROP TABLE ddl_a, ddl_b, ddl_n, ddl_types;
-- a table named twice in one DROP is dropped once
CREATE TABLE dd (a int);
DROP TABLE dd, dd;
DROP TABLE dd;
