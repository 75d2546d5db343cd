--
-- Transactions: BEGIN/COMMIT/ROLLBACK, visibility of a block's changes,
-- failed blocks (25P02), statement atomicity, transactional DDL
--
CREATE TABLE tx (id int NOT NULL, v text);
BEGIN;
INSERT INTO tx VALUES (1, 'committed');
SELECT * FROM tx;
COMMIT;
SELECT * FROM tx;
BEGIN;
INSERT INTO tx VALUES (2, 'rolled back');
UPDATE tx SET v = 'changed' WHERE id = 1;
SELECT * FROM tx ORDER BY id;
ROLLBACK;
SELECT * FROM tx ORDER BY id;
-- other spellings
START TRANSACTION;
INSERT INTO tx VALUES (3, 'start/end');
END;
BEGIN WORK;
DELETE FROM tx WHERE id = 3;
ABORT;
BEGIN TRANSACTION;
INSERT INTO tx VALUES (4, 'commit work');
COMMIT WORK;
BEGIN;
INSERT INTO tx VALUES (5, 'rollback transaction');
ROLLBACK TRANSACTION;
SELECT * FROM tx ORDER BY id;
-- warnings outside and inside blocks
COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
SELECT count(*) FROM tx;
COMMIT;
-- an error inside a block: every later statement fails with 25P02
BEGIN;
INSERT INTO tx VALUES (6, 'before error');
SELECT 1 / 0;
SELECT 1;
INSERT INTO tx VALUES (7, 'after error');
SELECT * FROM tx;
COMMIT;
SELECT * FROM tx ORDER BY id;
-- ROLLBACK ends a failed block
BEGIN;
INSERT INTO tx VALUES (8, 'x');
SELECT nosuch FROM tx;
ROLLBACK;
SELECT count(*) FROM tx;
-- syntax errors inside a block also fail it
BEGIN;
SELEC 1;
SELECT 1;
ROLLBACK;
-- in a failed block even BEGIN and SHOW fail; END (COMMIT) ends it
BEGIN;
SELECT 1 / 0;
BEGIN;
SHOW work_mem;
END;
SELECT 'idle again' AS state;
-- statement atomicity outside a block: a failing INSERT leaves nothing
INSERT INTO tx VALUES (10, 'a'), (11, 'b'), (NULL, 'c');
SELECT count(*) FROM tx WHERE id >= 10;
INSERT INTO tx SELECT id + 100, v FROM tx UNION ALL SELECT NULL::int, 'x';
SELECT count(*) FROM tx WHERE id >= 100;
INSERT INTO tx VALUES (12, 'ok'), (1 / 0, 'fails');
SELECT count(*) FROM tx WHERE id >= 10;
-- ... and a failing UPDATE or DELETE changes nothing
UPDATE tx SET id = CASE WHEN id = 4 THEN NULL ELSE id + 1000 END;
SELECT id FROM tx ORDER BY id;
UPDATE tx SET v = v || '!' WHERE 10 / (id - 4) > 0;
SELECT id, v FROM tx ORDER BY id;
DELETE FROM tx WHERE 10 / (id - 4) > 0;
SELECT id, v FROM tx ORDER BY id;
-- inside a block, an earlier successful statement survives only until ROLLBACK
BEGIN;
INSERT INTO tx VALUES (20, 'in block');
INSERT INTO tx VALUES (21, 'ok'), (NULL, 'bad');
ROLLBACK;
SELECT count(*) FROM tx WHERE id >= 20;
-- several changes to one row in a block, then COMMIT
BEGIN;
INSERT INTO tx VALUES (30, 'v1');
UPDATE tx SET v = 'v2' WHERE id = 30;
UPDATE tx SET v = v || '+v3' WHERE id = 30;
DELETE FROM tx WHERE id = 1;
SELECT id, v FROM tx ORDER BY id;
COMMIT;
SELECT id, v FROM tx ORDER BY id;
-- DDL is transactional
BEGIN;
CREATE TABLE tx_new (a int);
INSERT INTO tx_new VALUES (1);
SELECT * FROM tx_new;
ROLLBACK;
SELECT * FROM tx_new;
BEGIN;
DROP TABLE tx;
SELECT count(*) FROM tx;
ROLLBACK;
SELECT count(*) FROM tx;
BEGIN;
TRUNCATE tx;
SELECT count(*) FROM tx;
ROLLBACK;
SELECT count(*) FROM tx;
BEGIN;
CREATE TABLE tx_new (a int);
INSERT INTO tx_new VALUES (2);
COMMIT;
SELECT * FROM tx_new;
-- an error in DDL inside a block
BEGIN;
CREATE TABLE tx_new (b int);
SELECT 1;
ROLLBACK;
SELECT * FROM tx_new;
-- a block that only reads
BEGIN;
SELECT count(*) FROM tx;
SELECT max(id) FROM tx;
COMMIT;
-- an empty block
BEGIN;
COMMIT;
BEGIN;
ROLLBACK;
DROP TABLE tx, tx_new;
