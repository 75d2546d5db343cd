-- TOAST in the catalog and DDL: which tables get a TOAST relation, the
-- TOAST relation itself, per-column storage strategies and compression
-- methods (ALTER TABLE ... SET STORAGE / SET COMPRESSION, CREATE TABLE's
-- COMPRESSION clause), default_toast_compression.  No large values
-- here: storing them is toast_*.sql's business.
--
-- Which tables get a TOAST relation: some column of variable width that
-- may be toasted, and a row that could outgrow 2032 bytes.
CREATE TABLE tx (a int, b text);
CREATE TABLE tb (b bytea);
CREATE TABLE tn (n numeric);
CREATE TABLE tv (v varchar);
CREATE TABLE ti (a int, b bigint, c boolean, d date, e uuid, f float8, g interval, h name);
CREATE TABLE tv10 (a int, v varchar(10), c char(5), n numeric(10,2));
CREATE TABLE tv500 (v varchar(500));
CREATE TABLE tv501 (v varchar(501));
CREATE TABLE tv502 (v varchar(502));
CREATE TABLE tiv500 (a int, v varchar(500));
CREATE TABLE tc600 (c char(600));
CREATE TABLE tn1000 (a numeric(1000,0), b numeric(1000,0), c numeric(1000,0));
CREATE TABLE tn1000x4 (a numeric(1000,0), b numeric(1000,0), c numeric(1000,0), d numeric(1000,0));
CREATE TABLE tmany (a varchar(200), b varchar(200), c varchar(200));
CREATE TABLE tnone ();
CREATE TABLE ctas AS SELECT 1 AS a, 'x'::text AS b;
CREATE TABLE ctas_int AS SELECT 1 AS a, 2::bigint AS b;
SELECT 'x'::varchar(3) AS v INTO si_short;
SELECT 'x'::bytea AS v INTO si_bytea;
SELECT relname, reltoastrelid <> 0 AS has_toast
  FROM pg_class
 WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'
 ORDER BY relname;

-- the TOAST relation: pg_toast.pg_toast_<table oid>, three PLAIN columns
SELECT c.relname = 'pg_toast_' || t.oid AS named_after_table,
       c.relkind, c.relnamespace = 'pg_toast'::regnamespace AS in_pg_toast,
       c.relnatts, c.reltoastrelid, c.relpersistence,
       c.oid > t.oid AS oid_after_table
  FROM pg_class t JOIN pg_class c ON c.oid = t.reltoastrelid
 WHERE t.relname = 'tx';
SELECT a.attnum, a.attname, a.atttypid::regtype, a.attstorage,
       a.attcompression, a.attnotnull
  FROM pg_attribute a
 WHERE a.attrelid = (SELECT reltoastrelid FROM pg_class WHERE relname = 'tx')
   AND a.attnum > 0
 ORDER BY a.attnum;
SELECT nspname FROM pg_namespace WHERE oid = 99;
-- sizes count the (empty) TOAST relation and its index's metapage
SELECT relname, pg_table_size(oid), pg_total_relation_size(oid),
       pg_relation_size(oid)
  FROM pg_class WHERE relname IN ('tx', 'ti', 'tv10') ORDER BY relname;
-- not visible, not listed
SELECT pg_table_is_visible(reltoastrelid) FROM pg_class WHERE relname = 'tx';
\d tx*

-- the columns' storage and compression as created
SELECT attname, atttypid::regtype, attstorage, attcompression,
       attcompression = '' AS is_default
  FROM pg_attribute
 WHERE attrelid = 'tv10'::regclass AND attnum > 0
 ORDER BY attnum;

-- SET STORAGE: any strategy for a TOAST-aware type, only PLAIN otherwise
CREATE TABLE s (i int, t text, b bytea, n numeric, v varchar(10), c char(3),
                nm name, u uuid, f float8, ts timestamp, iv interval, d date,
                bo boolean, o oid);
ALTER TABLE s ALTER t SET STORAGE plain;
ALTER TABLE s ALTER COLUMN b SET STORAGE external;
ALTER TABLE s ALTER n SET STORAGE extended;
ALTER TABLE s ALTER v SET STORAGE main;
ALTER TABLE s ALTER c SET STORAGE PLAIN;
ALTER TABLE s ALTER i SET STORAGE plain;
ALTER TABLE s ALTER nm SET STORAGE plain;
ALTER TABLE s ALTER i SET STORAGE main;
ALTER TABLE s ALTER nm SET STORAGE external;
ALTER TABLE s ALTER u SET STORAGE extended;
ALTER TABLE s ALTER f SET STORAGE main;
ALTER TABLE s ALTER ts SET STORAGE main;
ALTER TABLE s ALTER iv SET STORAGE external;
ALTER TABLE s ALTER d SET STORAGE extended;
ALTER TABLE s ALTER bo SET STORAGE main;
ALTER TABLE s ALTER o SET STORAGE main;
SELECT attname, attstorage FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attnum > 0 ORDER BY attnum;
-- back and forth, names in any case
ALTER TABLE s ALTER t SET STORAGE "EXTERNAL";
ALTER TABLE s ALTER t SET STORAGE Main;
ALTER TABLE s ALTER t SET STORAGE extended;
SELECT attname, attstorage FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attname = 't';

-- SET COMPRESSION: pglz, lz4, default; only for TOAST-aware types
ALTER TABLE s ALTER t SET COMPRESSION lz4;
ALTER TABLE s ALTER COLUMN b SET COMPRESSION pglz;
ALTER TABLE s ALTER n SET COMPRESSION lz4;
ALTER TABLE s ALTER v SET COMPRESSION pglz;
ALTER TABLE s ALTER c SET COMPRESSION lz4;
ALTER TABLE s ALTER i SET COMPRESSION lz4;
ALTER TABLE s ALTER nm SET COMPRESSION pglz;
ALTER TABLE s ALTER u SET COMPRESSION lz4;
ALTER TABLE s ALTER f SET COMPRESSION lz4;
ALTER TABLE s ALTER ts SET COMPRESSION lz4;
ALTER TABLE s ALTER iv SET COMPRESSION pglz;
ALTER TABLE s ALTER i SET COMPRESSION default;
ALTER TABLE s ALTER i SET COMPRESSION zstd;
SELECT attname, attstorage, attcompression FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attnum > 0 ORDER BY attnum;
ALTER TABLE s ALTER v SET COMPRESSION default;
ALTER TABLE s ALTER t SET COMPRESSION pglz;
SELECT attname, attcompression, attcompression = '' AS is_default
  FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attname IN ('t', 'v') ORDER BY attnum;
\d+ s

-- errors
ALTER TABLE s ALTER t SET COMPRESSION zstd;
ALTER TABLE s ALTER t SET COMPRESSION "LZ4";
ALTER TABLE s ALTER t SET COMPRESSION "DEFAULT";
ALTER TABLE s ALTER t SET STORAGE compressed;
ALTER TABLE s ALTER nosuch SET STORAGE main;
ALTER TABLE s ALTER nosuch SET STORAGE bogus;
ALTER TABLE s ALTER nosuch SET COMPRESSION lz4;
ALTER TABLE s ALTER ctid SET STORAGE main;
ALTER TABLE s ALTER xmin SET COMPRESSION lz4;
ALTER TABLE s ALTER "T" SET STORAGE main;
ALTER TABLE nosuch ALTER t SET STORAGE main;
ALTER TABLE nosuch ALTER t SET COMPRESSION lz4;
ALTER TABLE IF EXISTS nosuch ALTER t SET STORAGE main;
ALTER TABLE pg_class ALTER relname SET STORAGE main;
ALTER TABLE pg_catalog.pg_attribute ALTER attname SET COMPRESSION lz4;
ALTER TABLE pg_am ALTER amname SET STORAGE plain;

-- several subcommands: all or nothing
ALTER TABLE s ALTER t SET STORAGE main, ALTER b SET COMPRESSION lz4, ALTER t SET COMPRESSION default;
SELECT attname, attstorage, attcompression FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attname IN ('t', 'b') ORDER BY attnum;
ALTER TABLE s ALTER t SET STORAGE plain, ALTER i SET STORAGE main;
ALTER TABLE s ALTER t SET COMPRESSION pglz, ALTER nosuch SET COMPRESSION lz4;
SELECT attname, attstorage, attcompression FROM pg_attribute
 WHERE attrelid = 's'::regclass AND attname IN ('t', 'b') ORDER BY attnum;
-- in a transaction: undone by ROLLBACK, kept by COMMIT
BEGIN;
ALTER TABLE s ALTER t SET STORAGE external;
SELECT attstorage FROM pg_attribute WHERE attrelid = 's'::regclass AND attname = 't';
ROLLBACK;
SELECT attstorage FROM pg_attribute WHERE attrelid = 's'::regclass AND attname = 't';
BEGIN;
ALTER TABLE s ALTER t SET STORAGE external;
ALTER TABLE s ALTER t SET COMPRESSION lz4;
COMMIT;
SELECT attstorage, attcompression FROM pg_attribute WHERE attrelid = 's'::regclass AND attname = 't';

-- the table still works with its new settings
INSERT INTO s (i, t, b, n, v, c) VALUES (1, 'plain text', '\x0102', 1.5, 'short', 'abc');
ALTER TABLE s ALTER t SET STORAGE plain, ALTER b SET STORAGE plain;
INSERT INTO s (i, t, b, n, v, c) VALUES (2, 'more text', '\x03', 2.5, 'v', 'x');
SELECT i, t, b, n, v, c FROM s ORDER BY i;
SELECT pg_table_size('s'::regclass);
-- ... and SET STORAGE PLAIN everywhere keeps the TOAST relation
SELECT reltoastrelid <> 0 AS has_toast FROM pg_class WHERE relname = 's';

-- CREATE TABLE ... COMPRESSION
CREATE TABLE cc (a text COMPRESSION lz4, b bytea COMPRESSION pglz,
                 c text COMPRESSION default, d varchar(20) COMPRESSION lz4,
                 e numeric COMPRESSION pglz, f int);
SELECT attname, attstorage, attcompression FROM pg_attribute
 WHERE attrelid = 'cc'::regclass AND attnum > 0 ORDER BY attnum;
\d+ cc
CREATE TABLE cc2 (a int COMPRESSION lz4);
CREATE TABLE cc2 (a text COMPRESSION zstd);
CREATE TABLE cc2 (a uuid COMPRESSION pglz);
SELECT count(*) FROM pg_class WHERE relname = 'cc2';

-- default_toast_compression
SHOW default_toast_compression;
SET default_toast_compression = lz4;
SHOW default_toast_compression;
SET default_toast_compression = 'PGLZ';
SHOW default_toast_compression;
SET default_toast_compression = zstd;
SET default_toast_compression = '';
SHOW default_toast_compression;
SET default_toast_compression TO DEFAULT;
SHOW default_toast_compression;
BEGIN;
SET LOCAL default_toast_compression = lz4;
SHOW default_toast_compression;
COMMIT;
SHOW default_toast_compression;
SET default_toast_compression = lz4;
RESET default_toast_compression;
SHOW default_toast_compression;
-- a column's setting is not the session's: still default
CREATE TABLE dflt (a text);
SELECT attcompression = '' AS is_default FROM pg_attribute
 WHERE attrelid = 'dflt'::regclass AND attname = 'a';

-- TRUNCATE keeps the TOAST relation; DROP takes it along
CREATE TABLE tt (a int, b text);
CREATE TABLE tt_toast AS SELECT reltoastrelid AS toid FROM pg_class WHERE relname = 'tt';
INSERT INTO tt VALUES (1, 'one');
TRUNCATE tt;
SELECT t.reltoastrelid = k.toid AS same_toast FROM pg_class t, tt_toast k WHERE t.relname = 'tt';
SELECT count(*) FROM tt;
DROP TABLE tt;
SELECT count(*) AS left_behind FROM pg_class WHERE oid IN (SELECT toid FROM tt_toast);
SELECT count(*) AS columns_left FROM pg_attribute WHERE attrelid IN (SELECT toid FROM tt_toast);
-- a new table of that name gets a new TOAST relation
CREATE TABLE tt (b text);
SELECT t.reltoastrelid <> k.toid AND t.reltoastrelid <> 0 AS new_toast
  FROM pg_class t, tt_toast k WHERE t.relname = 'tt';
