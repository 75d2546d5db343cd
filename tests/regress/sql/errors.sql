--
-- Errors: PostgreSQL's SQLSTATEs, messages, details, hints and cursor
-- positions (shown by psql as LINE n: ... with a caret)
--
CREATE TABLE er (id int NOT NULL, name text, n numeric(4,1), v varchar(3));
INSERT INTO er VALUES (1, 'one', 1.0, 'a');
CREATE TABLE er2 (id int, other text);
INSERT INTO er2 VALUES (1, 'x');
-- syntax errors (42601)
SELEC 1;
SELECT 1 +;
SELECT * FORM er;
SELECT 1 FROM;
SELECT (1 + );
SELECT (1));
SELECT 1);
SELECT * FROM er WHERE;
SELECT * FROM er WHERE id = = 1;
INSERT INTO er VALUES;
INSERT INTO er VALUES (1,);
CREATE TABLE (a int);
CREATE TABLE er3 (a int,);
UPDATE er SET WHERE id = 1;
DELETE er;
SELECT 1 2;
SELECT id name text FROM er;
SELECT * FROM er ORDER id;
SELECT * FROM er LIMIT;
SELECT CASE WHEN true THEN 1;
SELECT 1 AS select;
SELECT * FROM er JOIN er2;
-- a syntax error on a later line of a statement
SELECT id,
       name
  FROM er
 WHERE id = 1 AND AND name = 'one';
SELECT id
  FROM er
  GROUP id;
-- undefined table (42P01)
SELECT * FROM nosuch;
SELECT * FROM er, nosuch;
SELECT * FROM er JOIN nosuch ON true;
INSERT INTO nosuch VALUES (1);
UPDATE nosuch SET a = 1;
DELETE FROM nosuch;
SELECT nosuch.id FROM er;
SELECT * FROM public.nosuch;
SELECT * FROM nosuchschema.er;
-- undefined column (42703)
SELECT nosuch FROM er;
SELECT id, nosuch FROM er;
SELECT er.nosuch FROM er;
SELECT * FROM er WHERE nosuch = 1;
-- the select list is analyzed before WHERE, so its error comes first
SELECT nosuch1 FROM er WHERE nosuch2 = 1;
SELECT id, 1 / 0 FROM er WHERE 'x'::int = 1;
SELECT * FROM er ORDER BY nosuch;
SELECT id FROM er GROUP BY nosuch;
INSERT INTO er (nosuch) VALUES (1);
UPDATE er SET nosuch = 1;
UPDATE er SET id = nosuch;
SELECT "ID" FROM er;
SELECT e.id FROM er AS e WHERE er.id = 1;
SELECT id FROM (SELECT 1 AS x) s;
-- ambiguous column (42702)
SELECT id FROM er, er2;
SELECT id FROM er JOIN er2 ON er.id = er2.id;
SELECT * FROM er, er2 WHERE id = 1;
SELECT name FROM er, er2 ORDER BY id;
-- duplicate alias (42712)
SELECT * FROM er a, er2 a;
SELECT * FROM er, er;
-- undefined function or operator (42883)
SELECT nosuchfunc(1);
SELECT length(1, 2);
SELECT upper(1);
SELECT 1 + 'a'::text;
SELECT 'a'::text - 'b'::text;
SELECT true + 1;
SELECT -'a'::text;
SELECT abs('x'::text);
SELECT sum(name) FROM er;
SELECT id ~~ 1 FROM er;
-- datatype mismatch (42804)
SELECT * FROM er WHERE name;
SELECT * FROM er WHERE id;
SELECT CASE WHEN 1 THEN 2 END;
SELECT * FROM er WHERE id = 1 AND 'x'::text;
UPDATE er SET id = 'x'::text;
INSERT INTO er (id) VALUES (true);
SELECT 1 UNION SELECT true;
SELECT coalesce(1, true);
SELECT * FROM er LIMIT 'a'::text;
-- invalid input syntax (22P02)
SELECT 'abc'::int;
SELECT * FROM er WHERE id = 'abc';
INSERT INTO er (id) VALUES ('1x');
SELECT 'maybe'::bool;
SELECT '1.2.3'::numeric;
SELECT 'x'::int8;
SELECT ''::int2;
SELECT '   '::numeric;
-- not-null violation (23502), value too long (22001), numeric overflow (22003)
INSERT INTO er VALUES (NULL, 'null id', 1, 'b');
INSERT INTO er (name) VALUES ('no id');
UPDATE er SET id = NULL;
INSERT INTO er (id, v) VALUES (2, 'abcd');
UPDATE er SET v = 'abcd';
INSERT INTO er (id, n) VALUES (2, 1000);
INSERT INTO er (id, n) VALUES (2, 999.95);
UPDATE er SET n = n * 10000;
INSERT INTO er (id) VALUES (2147483648);
SELECT 2147483647 + 1;
SELECT 1 / 0;
-- other errors: cardinality (21000), invalid parameter (22023)
SELECT (SELECT id FROM er UNION ALL SELECT 2);
SELECT * FROM generate_series(1, 10, 0);
-- grouping (42803)
SELECT id, count(*) FROM er;
SELECT name FROM er GROUP BY id;
SELECT count(*) FROM er WHERE count(*) > 0;
SELECT count(count(*)) FROM er;
-- messages count characters, not bytes, for the caret
SELECT 'héllo' || 'wörld' + 1;
SELECT 'ééé', nosuch FROM er;
-- the data is unchanged by all of the above
SELECT * FROM er;
SELECT * FROM er2;
DROP TABLE er, er2;
-- an unterminated quoted string: psql sends it at the end of the input
SELECT 'unterminated
