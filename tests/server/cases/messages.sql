-- notices, warnings, errors with LINE and caret, transaction states
DROP TABLE IF EXISTS nosuch;
COMMIT;
BEGIN;
BEGIN;
SELECT 1/0;
SELECT 1;
ROLLBACK;
SELEC 1;
SELECT 1 +;
SELECT a,
       nosuch
  FROM (SELECT 1 AS a) s;
SELECT 'é' || nosuch;
SELECT nosuch(1);
CREATE TABLE u (i int NOT NULL, v varchar(3));
INSERT INTO u VALUES (NULL, 'a');
INSERT INTO u VALUES (1, 'abcd');
INSERT INTO u VALUES ('x', 'a');
BEGIN;
INSERT INTO u VALUES (1, 'a');
SAVEPOINT s;
SELECT nosuch FROM u;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) FROM u;
COMMIT;
SELECT count(*) FROM u;
DROP TABLE u;
