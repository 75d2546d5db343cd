--
-- Unknown literals passed to functions whose parameter is regclass are
-- read by regclass's input function, as in PostgreSQL
--
CREATE TABLE t (a int, b text);
CREATE TABLE "T" (x int);
CREATE TABLE e (a int);
INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 100) g;
-- an empty table has no pages
SELECT pg_relation_size('e');
SELECT pg_relation_size('e') = 0 AS empty;
-- the literal and the explicit cast name the same relation
SELECT pg_relation_size('t') = pg_relation_size('t'::regclass) AS same;
SELECT pg_table_size('t') = pg_table_size('t'::regclass) AS same;
SELECT pg_total_relation_size('t') = pg_total_relation_size('t'::regclass)
       AS same;
SELECT pg_relation_size('t') > 0 AS rel, pg_table_size('t') > 0 AS tab,
       pg_total_relation_size('t') > 0 AS total;
-- names as regclass reads them: case folded, quoted, schema-qualified
SELECT pg_relation_size('T') = pg_relation_size('t'::regclass) AS folded;
SELECT pg_relation_size('public.t') = pg_relation_size('t'::regclass)
       AS qualified;
SELECT pg_relation_size('"T"') = pg_relation_size('"T"'::regclass) AS quoted;
SELECT pg_total_relation_size('public."T"') >= 0 AS quoted_qualified;
SELECT pg_relation_is_publishable('t');
SELECT pg_relation_is_publishable('pg_catalog.pg_class');
-- a literal OID reads as a number
SELECT pg_relation_size('1259') = pg_relation_size('pg_class') AS by_oid;
-- other argument types take the implicit casts to regclass
SELECT pg_relation_size(c.oid) = pg_relation_size('t') AS by_oid_column
  FROM pg_class c WHERE c.relname = 't';
SELECT pg_relation_size('t'::regclass::oid) = pg_relation_size('t') AS oid_arg;
SELECT pg_relation_size(NULL) IS NULL AS null_arg;
-- no such relation
SELECT pg_relation_size('nosuch');
SELECT pg_total_relation_size('nosuch');
SELECT pg_table_size('public.nosuch');
SELECT pg_relation_size('"t"') = 0 AS lower_quoted;
SELECT pg_relation_size('"e"') = 0 AS lower_quoted;
SELECT pg_relation_is_publishable('nosuch');
-- functions whose parameters are not regclass are unaffected
SELECT pg_get_userbyid(10) IS NOT NULL AS userbyid;
SELECT col_description('t'::regclass, 1) IS NULL AS no_comment;
SELECT obj_description('t'::regclass, 'pg_class') IS NULL AS no_comment;
SELECT length('t'), upper('t');
SELECT pg_table_is_visible('t'::regclass);
-- their unknown literals are read as their own types (oid here)
SELECT pg_get_userbyid('10') IS NOT NULL AS userbyid;
SELECT obj_description('1259', 'pg_class') IS NULL AS no_comment;
SELECT pg_table_is_visible('t');
SELECT col_description('t', 1);
-- the SQLSTATE of a missing relation
\set VERBOSITY sqlstate
SELECT pg_relation_size('nosuch');
SELECT pg_total_relation_size('"T2"');
\set VERBOSITY default
-- the message names the relation as read: folded, unquoted
SELECT pg_relation_size('NoSuch');
SELECT pg_relation_size('"No""Such"');
SELECT 'NoSuch'::regclass;
