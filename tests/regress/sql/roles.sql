-- Roles: CREATE / ALTER / DROP ROLE and USER, pg_authid.
-- Password verifiers have random salts, so only their shape is shown,
-- except for a verifier given as is (stored unchanged).
CREATE ROLE regress_r1;
CREATE ROLE regress_r2 WITH LOGIN SUPERUSER PASSWORD 'secret';
CREATE USER regress_u1 PASSWORD 'pw';
CREATE USER regress_u2 NOLOGIN;
CREATE ROLE regress_r3 LOGIN PASSWORD NULL;
SELECT rolname, rolsuper, rolcanlogin, rolinherit, rolconnlimit,
       rolpassword IS NULL AS nopw,
       rolpassword ~ '^SCRAM-SHA-256\$4096:[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$' AS scram
  FROM pg_authid WHERE rolname LIKE 'regress%' ORDER BY rolname;
-- pg_roles shows them, passwords hidden
SELECT rolname, rolsuper, rolcanlogin, rolpassword, rolvaliduntil
  FROM pg_roles WHERE rolname LIKE 'regress%' ORDER BY rolname;
SELECT rolname, rolsuper, rolcanlogin FROM pg_roles WHERE oid = 6171;
SELECT count(*) FROM pg_roles r JOIN pg_authid a USING (oid) WHERE a.rolname LIKE 'regress%';
-- already exists
CREATE ROLE regress_r1;
CREATE USER regress_u1;
-- a verifier is stored as given
CREATE ROLE regress_v LOGIN PASSWORD 'SCRAM-SHA-256$4096:33/7peTZnzNTxKRi3siOPQ==$6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=';
SELECT rolname, rolpassword FROM pg_authid WHERE rolname = 'regress_v';
-- the same password twice gets two salts
ALTER ROLE regress_u1 PASSWORD 'pw';
SELECT count(DISTINCT rolpassword) FROM pg_authid
  WHERE rolname IN ('regress_u1', 'regress_r2');
-- an empty password clears it
ALTER ROLE regress_u1 WITH PASSWORD '';
SELECT rolpassword IS NULL AS cleared FROM pg_authid WHERE rolname = 'regress_u1';
CREATE ROLE regress_e PASSWORD '';
SELECT rolpassword IS NULL AS cleared FROM pg_authid WHERE rolname = 'regress_e';
-- conflicting options
CREATE ROLE regress_x LOGIN NOLOGIN;
CREATE ROLE regress_x PASSWORD 'a' PASSWORD 'b';
ALTER ROLE regress_r1 SUPERUSER NOSUPERUSER;
-- reserved names
CREATE ROLE pg_regress_x;
-- ALTER ROLE
ALTER ROLE regress_r1 LOGIN;
ALTER ROLE regress_r1 WITH SUPERUSER PASSWORD 'x';
ALTER ROLE regress_r2 NOLOGIN NOSUPERUSER PASSWORD NULL;
SELECT rolname, rolsuper, rolcanlogin, rolpassword IS NULL AS nopw
  FROM pg_authid WHERE rolname IN ('regress_r1', 'regress_r2') ORDER BY 1;
ALTER ROLE regress_nosuch LOGIN;
ALTER USER regress_u2 LOGIN;
SELECT rolcanlogin FROM pg_authid WHERE rolname = 'regress_u2';
-- RENAME
ALTER ROLE regress_r3 RENAME TO regress_r3b;
ALTER ROLE regress_r3b RENAME TO regress_r1;
ALTER ROLE regress_nosuch RENAME TO regress_y;
SELECT rolname FROM pg_authid WHERE rolname LIKE 'regress_r3%';
-- transactional
BEGIN;
CREATE ROLE regress_t1;
DROP ROLE regress_r1;
SELECT rolname FROM pg_authid WHERE rolname IN ('regress_t1', 'regress_r1') ORDER BY 1;
ROLLBACK;
SELECT rolname FROM pg_authid WHERE rolname IN ('regress_t1', 'regress_r1') ORDER BY 1;
-- DROP ROLE
DROP ROLE regress_nosuch;
DROP ROLE IF EXISTS regress_nosuch;
DROP ROLE IF EXISTS regress_nosuch, regress_e;
DROP ROLE regress_r1, regress_r2, regress_nosuch;
DROP ROLE regress_r1, regress_r2, regress_u1, regress_u2, regress_r3b, regress_v;
SELECT count(*) FROM pg_authid WHERE rolname LIKE 'regress%';
-- a superuser reads pg_authid; pg_roles hides every password, and the
-- catalogs refuse what PostgreSQL refuses its superuser too
CREATE ROLE regress_pw PASSWORD 'x';
CREATE ROLE regress_nopw;
SELECT rolname, rolpassword IS NOT NULL AS has_pw FROM pg_authid
  WHERE rolname LIKE 'regress_%pw' ORDER BY 1;
SELECT rolname, rolpassword FROM pg_roles WHERE rolname LIKE 'regress_%pw' ORDER BY 1;
TRUNCATE pg_authid;
TRUNCATE pg_catalog.pg_class;
TRUNCATE pg_description;
TRUNCATE pg_roles;
INSERT INTO pg_roles (rolname) VALUES ('regress_evil');
UPDATE pg_catalog.pg_roles SET rolsuper = true WHERE false;
DELETE FROM pg_roles WHERE false;
COPY pg_roles TO STDOUT;
DROP ROLE regress_pw, regress_nopw;
