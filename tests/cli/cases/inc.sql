CREATE TABLE from_include (a int);
DROP TABLE nope;
\echo in the included file
