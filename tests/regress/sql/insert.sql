--
-- INSERT: VALUES (multi-row, DEFAULT), column lists, INSERT ... SELECT,
-- DEFAULT VALUES, RETURNING, assignment casts and their errors
--
CREATE TABLE ins (
    id int NOT NULL,
    name text DEFAULT 'anon',
    qty int2 DEFAULT 0,
    price numeric(6,2),
    code varchar(4)
);
INSERT INTO ins VALUES (1, 'one', 1, 1.5, 'a');
INSERT INTO ins VALUES (2, 'two', 2, 2.25, 'bb'), (3, 'three', 3, 3.125, 'ccc');
INSERT INTO ins (id) VALUES (4);
INSERT INTO ins (id, name) VALUES (5, DEFAULT), (6, 'six');
INSERT INTO ins (name, id) VALUES ('seven', 7);
INSERT INTO ins VALUES (8);
INSERT INTO ins VALUES (9, NULL, NULL, NULL, NULL);
INSERT INTO ins (id, qty, price) VALUES (10, DEFAULT, DEFAULT);
SELECT * FROM ins ORDER BY id;
-- RETURNING
INSERT INTO ins VALUES (11, 'eleven', 11, 11) RETURNING *;
INSERT INTO ins (id, name) VALUES (12, 'twelve'), (13, 'thirteen')
    RETURNING id, upper(name) AS shout, qty + 1 AS next;
INSERT INTO ins (id) VALUES (14) RETURNING name, price IS NULL AS no_price;
INSERT INTO ins (id) VALUES (15) RETURNING ins.id * 2 AS twice, ins.*;
-- assignment casts
INSERT INTO ins (id, qty, price) VALUES ('16', '7', '7.005') RETURNING id, qty, price;
INSERT INTO ins (id, qty, price) VALUES (17.4, 17.5, 17) RETURNING id, qty, price;
INSERT INTO ins (id, price) VALUES (18::int8, 18::int2) RETURNING id, price;
INSERT INTO ins (id, code) VALUES (19, 'abcd  ') RETURNING id, code, length(code);
INSERT INTO ins (id, name) VALUES (20, 20) RETURNING id, name;
-- INSERT ... SELECT
CREATE TABLE ins_copy (id int, name text, total numeric);
INSERT INTO ins_copy SELECT id, name, qty * price FROM ins WHERE id <= 3;
INSERT INTO ins_copy (id, name)
    SELECT id + 100, name || '!' FROM ins WHERE name IS NOT NULL AND id BETWEEN 4 AND 7;
INSERT INTO ins_copy SELECT id, name FROM ins WHERE false;
INSERT INTO ins_copy SELECT 1000, 'const', 1;
SELECT * FROM ins_copy ORDER BY id;
INSERT INTO ins_copy (id) SELECT max(id) + 1 FROM ins_copy RETURNING id;
-- DEFAULT VALUES
CREATE TABLE ins_dv (a int DEFAULT 42, b text, c bool DEFAULT false);
INSERT INTO ins_dv DEFAULT VALUES;
INSERT INTO ins_dv DEFAULT VALUES RETURNING *;
SELECT * FROM ins_dv;
-- errors: nothing is inserted by a failing statement
INSERT INTO ins VALUES (21, 'x', 1, 1, 'x', 'extra');
INSERT INTO ins (id, name) VALUES (21);
INSERT INTO ins (id) VALUES (21, 'x');
INSERT INTO ins (id, nosuch) VALUES (21, 1);
INSERT INTO ins (id, id) VALUES (21, 22);
INSERT INTO nosuch VALUES (1);
INSERT INTO ins (id) VALUES ('abc');
INSERT INTO ins (id, qty) VALUES (21, 40000);
INSERT INTO ins (id, price) VALUES (21, 10000);
INSERT INTO ins (id, code) VALUES (21, 'abcde');
INSERT INTO ins (id, name) VALUES (21, 'ok'), (NULL, 'bad');
INSERT INTO ins (id) VALUES (21), (22), (1 / 0);
INSERT INTO ins (id) VALUES (true);
INSERT INTO ins (id) SELECT 'x'::text;
INSERT INTO ins (id) SELECT 1, 2;
INSERT INTO ins SELECT id FROM nosuch;
SELECT count(*), max(id) FROM ins;
DROP TABLE ins, ins_copy, ins_dv;
-- INSERT ... SELECT: untyped literals take the target column's type
CREATE TABLE ti (a int, b text, c numeric(5,1), d date);
INSERT INTO ti SELECT NULL, NULL, NULL, NULL FROM generate_series(1, 2);
INSERT INTO ti SELECT 1, 'x', '2.25', '2024-01-02';
INSERT INTO ti (d, a) SELECT '2024-03-04', '7';
INSERT INTO ti SELECT 'abc';
INSERT INTO ti SELECT NULL UNION SELECT 5;
SELECT * FROM ti ORDER BY a NULLS FIRST, b;
DROP TABLE ti;
