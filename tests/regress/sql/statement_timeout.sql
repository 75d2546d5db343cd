-- statement_timeout: a statement running longer is cancelled with 57014
-- "canceling statement due to statement timeout"; the session goes on.
-- (The long statements would take many seconds; the timeouts are short.)
SHOW statement_timeout;
SET statement_timeout = 500;
SHOW statement_timeout;
SELECT count(*) FROM generate_series(1, 100000000);
-- the next statement runs normally, with the same timeout
SELECT count(*) FROM generate_series(1, 1000);
RESET statement_timeout;
SHOW statement_timeout;
-- in a transaction block the error fails the block
BEGIN;
SET LOCAL statement_timeout = '50ms';
SELECT count(*) FROM generate_series(1, 100000000);
SELECT 1;
ROLLBACK;
SHOW statement_timeout;
-- a cancelled write leaves nothing behind
CREATE TABLE st_t (a int);
INSERT INTO st_t VALUES (1);
SET statement_timeout = '100ms';
INSERT INTO st_t SELECT g FROM generate_series(1, 100000000) g;
UPDATE st_t SET a = a + 1 WHERE a < (SELECT count(*) FROM generate_series(1, 100000000));
RESET statement_timeout;
SELECT a FROM st_t;
-- a cancelled statement inside a block: only ROLLBACK is accepted
BEGIN;
INSERT INTO st_t VALUES (2);
SET statement_timeout = '100ms';
SELECT count(*) FROM st_t, generate_series(1, 100000000);
COMMIT;
SHOW statement_timeout;
SELECT a FROM st_t ORDER BY a;
-- units, and the setting's canonical text
SET statement_timeout = '1s';
SHOW statement_timeout;
SET statement_timeout = '90s';
SHOW statement_timeout;
SET statement_timeout = '1min';
SHOW statement_timeout;
SET statement_timeout = 0;
SHOW statement_timeout;
SET statement_timeout = -1;
SET lock_timeout = '2s';
SHOW lock_timeout;
RESET lock_timeout;
DROP TABLE st_t;
