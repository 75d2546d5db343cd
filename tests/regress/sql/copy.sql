--
-- COPY in text format: FROM STDIN with the data inline (as psql sends it),
-- TO STDOUT, column lists, defaults, constraints, escapes, NULL markers,
-- the end marker, error messages and their CONTEXT lines, atomicity
--
CREATE TABLE ct (
    id int NOT NULL,
    name text DEFAULT 'anon',
    qty int2 DEFAULT 7,
    price numeric(6,2),
    code varchar(4),
    CHECK (qty >= 0)
);
COPY ct FROM STDIN;
1	one	1	1.50	a
2	two	2	2.25	bb
3	\N	3	\N	\N
\.
SELECT * FROM ct ORDER BY id;
COPY ct TO STDOUT;
-- column lists: the other columns take their defaults (or NULL)
COPY ct (id) FROM STDIN;
4
\.
COPY ct (code, id, price) FROM STDIN;
d	5	5.5
\.
SELECT * FROM ct WHERE id >= 4 ORDER BY id;
COPY ct (price, id) TO STDOUT;
-- escapes in and out
CREATE TABLE esc (id int, t text);
COPY esc FROM STDIN;
1	tab\there
2	new\nline
3	back\\slash
4	cr\rlf
5	\b\f\v
6	octal \101\102\103 hex \x41\x4a\x4
7	unknown escapes \q\z\!
8	
9	\N
10	\\N
11	\N\N
12	a\
b
13	trailing backslash\
\.
SELECT id, t, length(t) FROM esc ORDER BY id;
COPY esc TO STDOUT;
COPY (SELECT id, t IS NULL AS isnull FROM esc WHERE id >= 8 ORDER BY id) TO STDOUT;
-- the end marker also ends the data in the middle of a line
TRUNCATE esc;
COPY esc FROM STDIN;
1	one
2	two\.
\.
SELECT * FROM esc ORDER BY id;
-- a different NULL string and delimiter
COPY esc FROM STDIN WITH (NULL 'nil', DELIMITER '|');
3|nil
4|\N
5|a\|b
\.
SELECT id, t, t IS NULL AS isnull FROM esc ORDER BY id;
COPY esc TO STDOUT WITH (NULL 'nil', DELIMITER '|');
COPY esc TO STDOUT (DELIMITER ',');
COPY esc TO STDOUT (NULL '');
-- header lines in text format
COPY esc TO STDOUT WITH (HEADER);
COPY esc (t) TO STDOUT WITH (HEADER true, FORMAT text);
TRUNCATE esc;
COPY esc FROM STDIN WITH (HEADER);
anything at all
6	six
\.
COPY esc FROM STDIN WITH (HEADER match);
id	t
7	seven
\.
COPY esc (t, id) FROM STDIN WITH (HEADER MATCH);
t	id
eight	8
\.
SELECT * FROM esc ORDER BY id;
COPY esc FROM STDIN WITH (HEADER match);
id	name
9	nine
\.
COPY esc FROM STDIN WITH (HEADER match);
id
9	nine
\.
COPY esc FROM STDIN WITH (HEADER match);
id	\N
9	nine
\.
COPY esc TO STDOUT WITH (HEADER match);
-- errors in the data, with their CONTEXT
COPY ct FROM STDIN;
10	ten	10	10	x
11	eleven
\.
COPY ct FROM STDIN;
10	ten	10	10	x	extra
\.
COPY ct FROM STDIN;
10	ten	ten	10	x
\.
COPY ct FROM STDIN;
10	ten	100000	10	x
\.
COPY ct FROM STDIN;
10	ten	10	12345.678	x
\.
COPY ct FROM STDIN;
10	ten	10	10	toolong
\.
COPY ct FROM STDIN;
\N	ten	10	10	x
\.
COPY ct FROM STDIN;
10	ten	-1	10	x
\.
COPY ct FROM STDIN;
10	ten	1	10	x
11	eleven	1	10	x
xx	twelve	1	10	x
\.
COPY ct (id, qty) FROM STDIN;
12	-3
\.
COPY ct FROM STDIN;

\.
COPY ct (name, id) FROM STDIN;
this value is quite long and goes on and on well past the limit of one hundred bytes that is shown	x
\.
COPY ct (id, name) FROM STDIN;
13	this line is quite long and goes on and on well past the limit of one hundred bytes that is shown	extra
\.
COPY ct (id, name) FROM STDIN;
14	bad octal \377 here
\.
COPY ct (id, name) FROM STDIN;
15	nul \0 here
\.
COPY ct FROM STDIN;
16	sixteen	1	1	x
\.x
\.
COPY ct (nosuch) FROM STDIN;
COPY ct (id, id) FROM STDIN;
COPY nosuch FROM STDIN;
COPY ct (nosuch) TO STDOUT;
-- nothing of a failed COPY is left
SELECT count(*) FROM ct;
-- COPY in a transaction block
BEGIN;
COPY ct (id, name) FROM STDIN;
20	twenty
21	twenty-one
\.
SELECT id, name FROM ct WHERE id >= 20 ORDER BY id;
ROLLBACK;
SELECT count(*) FROM ct WHERE id >= 20;
BEGIN;
COPY ct (id, name) FROM STDIN;
22	twenty-two
\.
COPY ct (id, qty) FROM STDIN;
23	-1
\.
SELECT 1;
ROLLBACK;
SELECT count(*) FROM ct WHERE id >= 20;
-- types
CREATE TABLE typed (b bool, d date, ts timestamp, n numeric, f float8,
                    by bytea, u uuid, c char(3), i8 int8);
COPY typed FROM STDIN;
t	2024-02-29	2024-02-29 13:04:05.5	-1.50	1.5	\\x00ff	a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11	ab	9223372036854775807
false	infinity	-infinity	NaN	-Infinity	\\x	00000000-0000-0000-0000-000000000000	abc	-1
\N	\N	\N	\N	\N	\N	\N	\N	\N
\.
SELECT * FROM typed ORDER BY i8;
COPY typed TO STDOUT;
COPY typed (d) FROM STDIN;
2024-02-30
\.
-- COPY (query) TO
COPY (SELECT 1 AS one, 'x' AS x UNION ALL SELECT 2, NULL ORDER BY 1) TO STDOUT;
COPY (VALUES (1, 'a\b'), (2, E'tab\there')) TO STDOUT WITH (HEADER);
COPY (SELECT id, name FROM ct WHERE id < 3 ORDER BY id) TO STDOUT;
COPY (INSERT INTO esc VALUES (30, 'thirty') RETURNING *) TO STDOUT;
COPY (INSERT INTO esc VALUES (31, 'thirty-one')) TO STDOUT;
COPY (UPDATE esc SET t = upper(t) WHERE id = 30 RETURNING id, t) TO STDOUT;
COPY (DELETE FROM esc WHERE id = 30 RETURNING t) TO STDOUT;
COPY (SELECT 1 INTO newtab) TO STDOUT;
COPY (SELECT nosuch FROM esc) TO STDOUT;
COPY (SELECT 1/0) TO STDOUT;
COPY (SELECT * FROM esc WHERE false) TO STDOUT;
SELECT * FROM esc ORDER BY id;
-- empty input
COPY esc FROM STDIN;
\.
SELECT count(*) FROM esc;
DROP TABLE ct, esc, typed;
-- COPY FROM ... WHERE: rows it rejects are skipped before the constraints
CREATE TABLE w (a int NOT NULL, b text DEFAULT 'dflt' CHECK (b <> 'bad'));
COPY w FROM STDIN WHERE a > 1;
1	one
2	two
3	\N
\.
COPY w (a) FROM STDIN WHERE b = 'dflt' AND a % 2 = 0;
4
5
\.
COPY w FROM STDIN WHERE a > 10;
1	bad
11	eleven
\.
COPY w FROM STDIN WHERE b IS NOT NULL;
12	\N
\.
COPY w FROM STDIN WITH (FORMAT csv) WHERE upper(b) LIKE 'T%';
20,ten
21,twenty
\.
SELECT * FROM w ORDER BY a;
COPY w FROM STDIN WHERE a > 10;
\N	x
\.
COPY w FROM STDIN WHERE nosuch > 1;
COPY w FROM STDIN WHERE a;
COPY w FROM STDIN WHERE a > (SELECT 1);
COPY w FROM STDIN WHERE count(*) > 1;
COPY w FROM STDIN WHERE generate_series(1, 2) > 1;
COPY w TO STDOUT WHERE a > 1;
COPY w (nosuch) FROM STDIN WHERE nosuch2 > 1;
COPY w FROM STDIN WITH (FORMAT xml) WHERE a > 1;
COPY w FROM STDIN WITH (FORMAT csv) WHERE a > 1 / 0;
DROP TABLE w;
-- the SQLSTATEs of COPY's errors
\set VERBOSITY sqlstate
CREATE TABLE codes (id int NOT NULL, t text CHECK (t <> 'bad'));
COPY codes FROM STDIN;
1	a	extra
\.
COPY codes FROM STDIN;
x	a
\.
COPY codes FROM STDIN;
\N	a
\.
COPY codes FROM STDIN;
1	bad
\.
COPY codes FROM STDIN;
1	\377
\.
COPY codes (nosuch) FROM STDIN;
COPY codes (id, id) FROM STDIN;
COPY codes FROM STDIN WITH (FORMAT csv, FORCE_NULL (id, t), FORCE_NULL (t));
COPY codes FROM STDIN WITH (DELIMITER 'xy');
COPY codes FROM STDIN WITH (ENCODING 'nosuch');
COPY codes TO STDOUT WITH (FORMAT csv, FORCE_QUOTE 'a');
COPY codes (id) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (t));
COPY codes TO 'relative/path';
COPY codes FROM STDIN WITH (HEADER 'x');
\set VERBOSITY default
DROP TABLE codes;
