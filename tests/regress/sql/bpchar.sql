-- character(n): values are stored and printed padded to n characters,
-- however they arrive
CREATE TABLE cp (id int, c char(6) DEFAULT 'd');
INSERT INTO cp VALUES (1, 'a');
INSERT INTO cp SELECT 2, 'b'::text;
INSERT INTO cp SELECT 3, 'c'::varchar(2);
INSERT INTO cp (id) VALUES (4);
COPY cp FROM STDIN;
5	e
\.
UPDATE cp SET c = 'f' WHERE id = 1;
INSERT INTO cp VALUES (6, 'g '), (7, 'h'::char(2)), (8, 'exactly'::char(6));
INSERT INTO cp VALUES (9, 'spaces      '), (10, 'é'), (11, '日本');
SELECT id, c, '|' || c || '|' AS bars, length(c), octet_length(c)
  FROM cp ORDER BY id;
CREATE TABLE cp2 AS SELECT c, c::char(3) AS c3, 'x'::char(4) AS c4 FROM cp;
SELECT * FROM cp2;
SELECT * FROM (VALUES ('a'::char(3)), ('bb'::char(5))) v(x);
SELECT 'a'::char(3) UNION ALL SELECT 'bb'::char(5);
SELECT ''::char(3), 'x'::char, 'xy'::character(1), 'ab'::char(5) AS c, 'x' AS y;
INSERT INTO cp VALUES (12, 'toolong');
DROP TABLE cp, cp2;
