\echo plain   words 'quoted  text' "double  quoted" tab'\t'x
\echo -n no newline
\echo
\echo :undefined :'undefined' x:undefined
\set tname meta_table
\set val 1 2 3
\echo :tname :'tname' :"tname" pre:tname :val
CREATE TABLE :tname (a int);
CREATE TABLE :"tname"x (a int);
DROP TABLE :tname, meta_tablex;
\unset tname
\echo :tname
\set 'bad-name' 1
\timing
\timing off
\timing on
\timing nonsense
\timing 0
\q extra
CREATE TABLE not_reached (a int);
