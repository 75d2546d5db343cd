-- DDL, transaction blocks and errors, as a regression test feeds them
CREATE TABLE items (id int NOT NULL, name text DEFAULT 'x;y', price numeric(10, 2));
CREATE TABLE items (id int);


CREATE TABLE "Mixed Case" (
    a int,   -- a comment inside
    b varchar(20) /* another; one */
);
DROP TABLE IF EXISTS nothing_here, "Mixed Case";
DROP TABLE nothing_here;
CREATE TABLE bad (a nosuchtype);
CREATE TABLE bad2 (a int, b varchar(0));
  CREATE TABL oops (a int);
BEGIN;
CREATE TABLE in_block (a int);
CREATE TABLE items (id int);
CREATE TABLE after_error (a int);
COMMIT;
DROP TABLE in_block;
BEGIN;
CREATE TABLE kept (a int); CREATE TABLE kept2 (a int);
COMMIT;
COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
ROLLBACK;
DROP TABLE kept, kept2;
TRUNCATE items;
VACUUM items;
ANALYZE items;
SET work_mem = '64MB';
SET work_mem = 'lots';
SET no_such_setting = 1;
RESET work_mem;
CREATE TABLE dollar (a text DEFAULT $$semi;colon$$, b text DEFAULT $tag$ $$ ; $tag$);
DROP TABLE dollar;
CREATE TABLE e_string (a text DEFAULT E'it\'s;');
DROP TABLE e_string, items
