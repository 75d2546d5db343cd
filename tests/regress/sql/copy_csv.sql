--
-- COPY in CSV format and COPY's options: quoting in and out, embedded
-- line ends, HEADER, QUOTE / ESCAPE / DELIMITER / NULL, FORCE_QUOTE,
-- FORCE_NOT_NULL, FORCE_NULL, the old option syntax, and every option
-- error PostgreSQL reports
--
CREATE TABLE cv (id int, a text, b text);
COPY cv FROM STDIN WITH (FORMAT csv);
1,plain,"quoted"
2,"with, comma","with ""quotes"""
3,"multi
line","cr
lf"
4,,""
5,"  spaces  ",  unquoted spaces  
6,\N,\.
7,"a""b",xy
\.
SELECT id, a, b, a IS NULL AS a_null, b IS NULL AS b_null FROM cv ORDER BY id;
COPY cv TO STDOUT WITH (FORMAT csv);
COPY cv TO STDOUT WITH (FORMAT csv, HEADER);
COPY cv (b) TO STDOUT WITH (FORMAT csv);
COPY cv TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *);
COPY cv TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (b), NULL 'NULL');
COPY cv TO STDOUT WITH (FORMAT csv, QUOTE '''', ESCAPE '\', DELIMITER ';');
COPY (SELECT '\.' AS x) TO STDOUT WITH (FORMAT csv);
COPY (SELECT '\.' AS x, 1 AS y) TO STDOUT WITH (FORMAT csv);
COPY (SELECT 'a"b' AS "odd,name") TO STDOUT WITH (FORMAT csv, HEADER);
-- the end marker alone on a line ends CSV data; elsewhere it is data
TRUNCATE cv;
COPY cv FROM STDIN WITH (FORMAT csv);
1,\.,x
\.
COPY cv FROM STDIN WITH (FORMAT csv);
2,"a\.b",\.x
\.
SELECT * FROM cv ORDER BY id;
-- HEADER, FORCE_NOT_NULL, FORCE_NULL
TRUNCATE cv;
COPY cv FROM STDIN WITH (FORMAT csv, HEADER true);
id,a,b
1,,""
\.
COPY cv FROM STDIN WITH (FORMAT csv, HEADER match, FORCE_NOT_NULL (a), FORCE_NULL (b));
id,a,b
2,,""
\.
COPY cv FROM STDIN WITH (FORMAT csv, NULL 'X', FORCE_NULL (a, b));
3,X,"X"
4,"x",Y
\.
COPY cv FROM STDIN WITH (FORMAT csv, HEADER match);
"id","a","b"
5,five,
\.
SELECT id, a, b, a IS NULL AS a_null, b IS NULL AS b_null FROM cv ORDER BY id;
-- other quote, escape and delimiter characters
COPY cv FROM STDIN WITH (FORMAT csv, QUOTE '''', ESCAPE '\', DELIMITER '|');
6|'it\'s'|'back\\slash'
7|'a|b'|'"'
\.
SELECT * FROM cv WHERE id >= 6 ORDER BY id;
-- the old spelling of the options
COPY cv FROM STDIN WITH CSV HEADER DELIMITER ';' NULL 'N' QUOTE '''' ESCAPE '\' FORCE NOT NULL b;
id;a;b
8;N;N
9;'x\'y';'z'
\.
SELECT id, a, b, a IS NULL AS a_null, b IS NULL AS b_null FROM cv WHERE id >= 8 ORDER BY id;
COPY cv TO STDOUT WITH CSV HEADER FORCE QUOTE a, b;
COPY cv (id) TO STDOUT CSV QUOTE AS '|';
COPY cv (id, a) TO STDOUT WITH DELIMITER AS ':' NULL AS '?';
-- CSV errors
COPY cv FROM STDIN WITH (FORMAT csv);
1,"unterminated
2,x,y
\.
COPY cv FROM STDIN WITH (FORMAT csv);
1,a,b,c
\.
COPY cv FROM STDIN WITH (FORMAT csv);
1,a
\.
COPY cv FROM STDIN WITH (FORMAT csv);
x,"a
b",c
\.
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL (id));
,a,b
\.
-- option errors
COPY cv FROM STDIN WITH (FORMAT xml);
COPY cv FROM STDIN WITH (FORMAT 'CSV');
COPY cv FROM STDIN WITH (FORMAT csv, FORMAT text);
COPY cv FROM STDIN WITH (DELIMITER ',', DELIMITER ';');
COPY cv FROM STDIN WITH (NULL 'a', NULL 'b');
COPY cv FROM STDIN WITH (HEADER, HEADER);
COPY cv FROM STDIN WITH (FREEZE, FREEZE false);
COPY cv FROM STDIN WITH (FORCE_NULL (a), FORCE_NULL (b));
COPY cv FROM STDIN WITH (nosuch);
COPY cv FROM STDIN WITH (nosuch 'x');
COPY cv FROM STDIN WITH (FORMAT);
COPY cv FROM STDIN WITH (DELIMITER);
COPY cv FROM STDIN WITH (HEADER 'maybe');
COPY cv FROM STDIN WITH (HEADER 2);
COPY cv FROM STDIN WITH (FREEZE 'maybe');
COPY cv FROM STDIN WITH (FREEZE 2);
COPY cv TO STDOUT WITH (HEADER match);
COPY cv FROM STDIN WITH (DELIMITER 'ab');
COPY cv FROM STDIN WITH (DELIMITER '');
COPY cv FROM STDIN WITH (DELIMITER E'\n');
COPY cv FROM STDIN WITH (NULL E'a\rb');
COPY cv FROM STDIN WITH (DELIMITER '\');
COPY cv FROM STDIN WITH (DELIMITER 'x');
COPY cv FROM STDIN WITH (DELIMITER '5');
COPY cv FROM STDIN WITH (DELIMITER '.');
COPY cv FROM STDIN WITH (QUOTE '"');
COPY cv FROM STDIN WITH (FORMAT csv, QUOTE 'ab');
COPY cv FROM STDIN WITH (FORMAT csv, QUOTE ',');
COPY cv FROM STDIN WITH (ESCAPE '"');
COPY cv FROM STDIN WITH (FORMAT csv, ESCAPE '');
COPY cv TO STDOUT WITH (FORCE_QUOTE *);
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_QUOTE (a));
COPY cv FROM STDIN WITH (FORCE_NOT_NULL (a));
COPY cv TO STDOUT WITH (FORMAT csv, FORCE_NOT_NULL (a));
COPY cv FROM STDIN WITH (FORCE_NULL (a));
COPY cv TO STDOUT WITH (FORMAT csv, FORCE_NULL (a));
COPY cv FROM STDIN WITH (NULL 'a	b');
COPY cv FROM STDIN WITH (FORMAT csv, NULL 'a"b');
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_NULL *);
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL 'a');
COPY cv TO STDOUT WITH (FORMAT csv, FORCE_QUOTE 'a');
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_NULL (nosuch));
COPY cv FROM STDIN WITH (FORMAT csv, FORCE_NULL (a, a));
COPY cv (id) FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL (a));
COPY cv (id) FROM STDIN WITH (FORMAT csv, FORCE_NULL (b));
COPY cv (id) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (a));
COPY (SELECT 1 AS x) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (y));
COPY cv FROM STDIN WITH (ENCODING 'nosuch');
COPY cv FROM STDIN WITH (ENCODING 'UTF8', ENCODING 'UTF8');
COPY cv (id) TO STDOUT WITH (ENCODING 'utf-8', FORMAT csv);
COPY cv (id) TO STDOUT WITH (FORMAT csv, FREEZE false, HEADER off);
-- options in an order that reports the first problem PostgreSQL checks
COPY cv FROM STDIN WITH (QUOTE 'x', DELIMITER 'ab');
COPY nosuch FROM STDIN WITH (nosuch);
COPY cv (nosuch) FROM STDIN WITH (FORMAT xml);
SELECT count(*) FROM cv;
DROP TABLE cv;
