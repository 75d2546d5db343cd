CREATE TABLE cc (id int, name text);
COPY cc FROM STDIN;
10	ten
\.
\copy cc from data.txt
\copy cc from 'data.csv' with (format csv, header)
\copy cc (id) from stdin
20
\.
\copy cc to out.txt
\copy (select * from cc order by id) to 'out.csv' csv header
\copy cc to stdout
\copy cc to pstdout with (format csv)
\copy "cc" ( "name" , id ) TO STDOUT ( FORMAT csv , FORCE_QUOTE ( name ) )
\copy public.cc to stdout with delimiter '|'
COPY cc TO STDOUT WITH (FORMAT csv, HEADER);
SELECT * FROM cc ORDER BY id;
-- errors; the line numbers count the data lines
COPY cc FROM STDIN;
30	thirty
x	bad
31	thirty-one
\.
COPY nosuch FROM STDIN;
SELECT 'after the error' AS at;
\copy cc from nosuch.txt
\copy cc from .
\copy cc from data.txt with (format xml)
\copy
\copy cc
\copy cc sideways stdin
\copy (select 1 to stdout
\copy cc from stdin
40	forty
\.
COPY cc (id) FROM STDIN;
\.
SELECT count(*) FROM cc;
SELECT 'the end' AS at;
