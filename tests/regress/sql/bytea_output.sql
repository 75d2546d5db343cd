--
-- bytea_output: hex (the default) or escape.
--
SHOW bytea_output;
CREATE TABLE bo (id int, b bytea);
INSERT INTO bo VALUES (1, '\x00415c7f80ff'), (2, ''), (3, 'abc'),
  (4, 'a\\b'), (5, '\001\037 ~\177'), (6, NULL), (7, '\xdeadbeef');
SELECT id, b FROM bo ORDER BY id;
SET bytea_output = 'escape';
SHOW bytea_output;
SELECT id, b FROM bo ORDER BY id;
SELECT id, b::text, length(b::text) FROM bo ORDER BY id;
-- what escape output prints reads back as the same value
SELECT count(*) FROM bo WHERE b::text::bytea <> b;
-- functions returning bytea
SELECT decode('68656c6c6f00', 'hex'), 'ab'::bytea || '\x00'::bytea,
       substr('\x0102030405'::bytea, 2, 3);
-- encode() is not affected
SELECT encode('\x00415c7f80ff'::bytea, 'escape'), encode('\x00415c'::bytea, 'hex');
SET bytea_output = 'HEX';
SHOW bytea_output;
SELECT id, b FROM bo ORDER BY id;
SET bytea_output = 'foo';
SET bytea_output = 'base64';
BEGIN;
SET bytea_output = escape;
SELECT '\x41ff'::bytea;
ROLLBACK;
SELECT '\x41ff'::bytea;
RESET bytea_output;
DROP TABLE bo;
