-- Only superusers read pg_authid, whose rolpassword holds every role's
-- password verifier: any other role's statement that names it, however
-- (subquery, CTE, join, EXPLAIN, COPY, CREATE TABLE AS), is refused
-- with 42501 when it starts.  Other roles read pg_roles (rolpassword
-- '********'), pg_get_userbyid and psql's \du, which read pg_authid for
-- the system.  Writes to the catalogs are refused with PostgreSQL's
-- messages.  Run as the superuser, then as regress_alice (\c), then as a
-- superuser that gives up SUPERUSER.  expected/authid_pg15.out is
-- PostgreSQL 15's output (tests/server/regen_expected.sh).
CREATE ROLE regress_alice LOGIN PASSWORD 'secret';
CREATE ROLE regress_bob LOGIN;
CREATE ROLE regress_nol NOLOGIN;
CREATE ROLE regress_su SUPERUSER LOGIN;
SELECT rolname, rolsuper, rolcanlogin, rolpassword LIKE 'SCRAM-SHA-256$4096:%' AS scram
  FROM pg_authid WHERE rolname LIKE 'regress_%' ORDER BY 1;
SELECT current_user AS su \gset
\c - regress_alice
SELECT current_user, session_user;
-- pg_authid, however it is named
SELECT * FROM pg_authid;
SELECT rolpassword FROM pg_catalog.pg_authid WHERE false;
SELECT count(*) FROM pg_authid;
SELECT (SELECT rolpassword FROM pg_authid WHERE rolname = 'regress_alice');
SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM pg_authid);
SELECT 1 AS x WHERE 10 IN (SELECT oid FROM pg_authid);
WITH r AS (SELECT rolpassword FROM pg_authid) SELECT count(*) FROM r;
WITH r AS (SELECT rolpassword FROM pg_authid) SELECT 'an unused CTE reads nothing' AS ok;
WITH r AS (SELECT rolpassword FROM pg_authid) SELECT count(*) FROM r, r AS r2;
WITH r AS MATERIALIZED (SELECT rolpassword FROM pg_authid) SELECT count(*) FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, pg_authid WHERE n < 2) SELECT count(*) FROM r;
SELECT * FROM (SELECT rolname FROM pg_authid) s WHERE false;
SELECT g FROM generate_series(1, 2) g JOIN pg_authid a ON a.oid = g;
SELECT 1 UNION ALL SELECT 1 FROM pg_authid;
SELECT ARRAY(SELECT rolname FROM pg_authid);
SELECT * FROM generate_series(1, (SELECT count(*)::int FROM pg_authid));
VALUES ((SELECT rolname FROM pg_authid LIMIT 1));
WITH RECURSIVE w(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM w, pg_authid WHERE n < 2)
  SELECT * FROM w;
SELECT rolname FROM pg_roles WHERE rolname IN (SELECT rolname FROM pg_authid);
EXPLAIN (COSTS OFF) SELECT rolpassword FROM pg_authid;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM pg_authid;
COPY pg_authid TO STDOUT;
COPY (SELECT rolpassword FROM pg_authid) TO STDOUT;
CREATE TABLE stolen AS SELECT rolpassword FROM pg_authid;
SELECT * INTO stolen FROM pg_authid;
-- what other roles read instead
SELECT rolname, rolsuper, rolcanlogin, rolpassword FROM pg_roles
  WHERE rolname LIKE 'regress_%' ORDER BY 1;
SELECT pg_get_userbyid(oid) FROM pg_roles WHERE rolname = 'regress_bob';
\du regress_*
\du+ regress_*
-- writes to the catalogs
INSERT INTO pg_authid (oid, rolname) VALUES (99999, 'regress_evil');
INSERT INTO pg_catalog.pg_authid (oid, rolname) VALUES (99999, 'regress_evil');
UPDATE pg_authid SET rolsuper = true WHERE rolname = 'regress_alice';
DELETE FROM pg_authid WHERE rolname = 'regress_bob';
TRUNCATE pg_authid;
TRUNCATE pg_catalog.pg_authid;
COPY pg_authid FROM STDIN;
INSERT INTO pg_class (oid) VALUES (1);
UPDATE pg_attribute SET attname = 'x' WHERE false;
DELETE FROM pg_catalog.pg_type WHERE false;
INSERT INTO pg_description VALUES (1, 1, 0, 'x');
UPDATE pg_am SET amname = 'x' WHERE false;
TRUNCATE pg_class;
TRUNCATE pg_description;
COPY pg_namespace FROM STDIN;
COPY pg_description FROM STDIN;
INSERT INTO pg_roles (rolname) VALUES ('regress_evil');
UPDATE pg_roles SET rolsuper = true WHERE false;
DELETE FROM pg_roles WHERE false;
TRUNCATE pg_roles;
COPY pg_roles FROM STDIN;
COPY pg_roles TO STDOUT;
-- a superuser that stops being one reads pg_authid no more, at once
\c - regress_su
SELECT count(*) > 0 AS reads FROM pg_authid;
ALTER ROLE regress_su NOSUPERUSER;
SELECT count(*) > 0 AS reads FROM pg_authid;
\c - :su
DROP ROLE regress_alice;
DROP ROLE regress_bob;
DROP ROLE regress_nol;
DROP ROLE regress_su;
