--
-- UPDATE and DELETE: WHERE, expressions over the old row, DEFAULT,
-- subqueries, RETURNING, errors that change nothing
--
CREATE TABLE ud (id int NOT NULL, grp text, val int DEFAULT 100, note text);
INSERT INTO ud VALUES (1, 'a', 10, NULL), (2, 'a', 20, 'x'), (3, 'b', 30, NULL),
    (4, 'b', NULL, 'y'), (5, 'c', 50, NULL), (6, NULL, 60, 'z');
UPDATE ud SET val = val + 1 WHERE grp = 'a';
SELECT * FROM ud ORDER BY id;
UPDATE ud SET val = val * 2, note = 'doubled' WHERE id > 4;
SELECT * FROM ud ORDER BY id;
UPDATE ud SET note = coalesce(note, '') || '+' WHERE grp IS NULL OR grp = 'b';
SELECT id, note FROM ud ORDER BY id;
-- SET col = DEFAULT, and NULL
UPDATE ud SET val = DEFAULT WHERE id = 4;
UPDATE ud SET note = NULL WHERE id = 2;
SELECT * FROM ud WHERE id IN (2, 4) ORDER BY id;
-- the right-hand sides see the old row
UPDATE ud SET val = id, id = val WHERE id = 1;
SELECT * FROM ud ORDER BY id;
UPDATE ud SET id = val, val = id WHERE id = 11;
SELECT * FROM ud ORDER BY id;
-- no rows match
UPDATE ud SET val = 0 WHERE false;
UPDATE ud SET val = 0 WHERE grp = 'nosuch' RETURNING *;
-- RETURNING
UPDATE ud SET val = val - 1 WHERE id = 4 RETURNING id, val, val * 10 AS tenfold;
UPDATE ud SET note = 'r' WHERE id = 3 RETURNING ud.*, note IS NOT NULL AS has_note;
-- subqueries in SET and WHERE
UPDATE ud SET val = (SELECT max(val) FROM ud) WHERE id = 2 RETURNING id, val;
UPDATE ud SET note = 'max' WHERE val = (SELECT max(val) FROM ud);
UPDATE ud SET note = 'in' WHERE id IN (SELECT id FROM ud WHERE grp = 'c') RETURNING id, note;
SELECT * FROM ud ORDER BY id;
-- a table alias
UPDATE ud AS u SET val = u.val + 1000 WHERE u.id = 5 RETURNING u.id, u.val;
-- the whole table
UPDATE ud SET grp = upper(grp);
SELECT id, grp FROM ud ORDER BY id;
-- errors leave the table as it was
UPDATE ud SET nosuch = 1;
UPDATE ud SET val = 'abc';
UPDATE ud SET val = true;
UPDATE ud SET id = NULL WHERE id = 3;
UPDATE ud SET val = 1 / (val - val) WHERE val IS NOT NULL;
UPDATE ud SET val = 2147483647 + val;
UPDATE nosuch SET a = 1;
UPDATE ud SET val = 1 WHERE nosuch = 1;
UPDATE ud SET val = (SELECT val FROM ud);
SELECT * FROM ud ORDER BY id;
--
-- DELETE
--
DELETE FROM ud WHERE id = 6;
SELECT id FROM ud ORDER BY id;
DELETE FROM ud WHERE val IS NULL RETURNING *;
DELETE FROM ud WHERE grp = 'A' AND id = 2 RETURNING id, val;
DELETE FROM ud WHERE grp = 'A';
DELETE FROM ud WHERE false RETURNING *;
SELECT * FROM ud ORDER BY id;
DELETE FROM ud WHERE id IN (SELECT id FROM ud WHERE val > 1000) RETURNING id;
DELETE FROM ud AS d WHERE d.note = 'r' RETURNING d.id, d.grp;
SELECT * FROM ud ORDER BY id;
DELETE FROM ud WHERE 1 / 0 = 1;
DELETE FROM ud WHERE nosuch = 1;
DELETE FROM nosuch;
SELECT count(*) FROM ud;
DELETE FROM ud;
SELECT count(*) FROM ud;
-- RETURNING several rows: a table whose rows were never updated is
-- scanned in insertion order, so the rows come back in that order
CREATE TABLE ud_r (id int, v int);
INSERT INTO ud_r VALUES (1, 1), (2, 2), (3, 3), (4, 4);
UPDATE ud_r SET v = v * 10 WHERE id > 1 RETURNING id, v;
DELETE FROM ud_r WHERE id = 1 OR v = 20 RETURNING *;
DROP TABLE ud_r;
-- updating a row more than once in a transaction, and deleting it
INSERT INTO ud (id, grp, val) VALUES (7, 'g', 1);
BEGIN;
UPDATE ud SET val = val + 1 WHERE id = 7;
UPDATE ud SET val = val + 1 WHERE id = 7;
UPDATE ud SET val = val + 1 WHERE id = 7 RETURNING val;
DELETE FROM ud WHERE id = 7 RETURNING id, val;
SELECT count(*) FROM ud;
ROLLBACK;
SELECT * FROM ud;
DROP TABLE ud;
