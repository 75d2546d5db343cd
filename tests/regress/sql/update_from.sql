-- UPDATE ... FROM and DELETE ... USING
CREATE TABLE acc (id int, bal int, name text);
CREATE TABLE tx (acc_id int, amount int);
INSERT INTO acc VALUES (1, 100, 'a'), (2, 200, 'b'), (3, 300, 'c'), (4, 400, NULL);
INSERT INTO tx VALUES (1, 10), (1, 5), (2, -50), (5, 99), (NULL, 1);
-- a target row joining two FROM rows is updated once
UPDATE acc SET bal = bal + tx.amount FROM tx WHERE tx.acc_id = acc.id AND acc.id = 2 RETURNING acc.*, tx.amount > 0 AS credit;
UPDATE acc SET bal = bal + tx.amount FROM tx WHERE tx.acc_id = acc.id AND acc.id <> 2;
SELECT * FROM acc ORDER BY id;
UPDATE acc a SET bal = s.total FROM (SELECT acc_id, sum(amount) AS total FROM tx GROUP BY acc_id) s
  WHERE s.acc_id = a.id AND a.id = 1 RETURNING *;
UPDATE acc a SET bal = s.total FROM (SELECT acc_id, sum(amount) AS total FROM tx GROUP BY acc_id) s
  WHERE s.acc_id = a.id;
SELECT * FROM acc ORDER BY id;
UPDATE acc SET name = upper(t.name) FROM acc t WHERE false;
UPDATE acc SET name = t.name || '!' FROM (SELECT id + 1 AS id, name FROM acc) t WHERE t.id = acc.id;
SELECT * FROM acc ORDER BY id;
UPDATE acc SET bal = 0 FROM tx t, tx u WHERE t.acc_id = acc.id AND u.acc_id = t.acc_id AND u.amount < 0;
SELECT * FROM acc ORDER BY id;
UPDATE acc SET bal = bal * 2 FROM generate_series(2, 2) g WHERE g = acc.id RETURNING id, bal, g;
UPDATE acc SET bal = -1 FROM tx WHERE tx.acc_id = 99;
DELETE FROM acc USING tx WHERE tx.acc_id = acc.id AND tx.amount < 0 RETURNING acc.id, tx.amount;
SELECT * FROM acc ORDER BY id;
DELETE FROM acc a USING acc b WHERE a.id = b.id + 2 AND b.id = 1 RETURNING a.id, b.id AS other;
DELETE FROM acc a USING acc b WHERE a.id = b.id + 2;
SELECT * FROM acc ORDER BY id;
BEGIN;
DELETE FROM tx USING acc WHERE acc.id = tx.acc_id;
SELECT * FROM tx ORDER BY acc_id, amount;
ROLLBACK;
SELECT count(*) FROM tx;
-- errors
UPDATE acc SET bal = 0 FROM acc WHERE true;
UPDATE acc SET bal = 0 FROM tx WHERE nosuch = 1;
UPDATE acc SET bal = tx.nosuch FROM tx;
DELETE FROM acc USING tx WHERE id = acc_id AND amount = 'x';
DELETE FROM acc USING nosuch WHERE true;
UPDATE acc SET bal = 1/0 FROM tx WHERE tx.acc_id = acc.id;
SELECT * FROM acc ORDER BY id;
DROP TABLE acc;
DROP TABLE tx;
