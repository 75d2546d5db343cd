CREATE TABLE s1 (a int);
DROP TABLE nope;
CREATE TABLE s2 (a int);
