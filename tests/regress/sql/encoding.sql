--
-- Encoding: the database is UTF8, and every way bytes become text checks
-- them (22021 "invalid byte sequence"): the query text as it arrives,
-- escape strings, COPY data.  This file holds bytes that are not UTF-8 on
-- purpose; psql and the shell send them as they are.
--
CREATE TABLE enc (id int, t text);
-- the query text: a bad byte anywhere, even in a comment
INSERT INTO enc VALUES (1, 'aˇ˛');
INSERT INTO enc VALUES (2, '¿Ä');
INSERT INTO enc VALUES (3, 'Ì†Ä');
INSERT INTO enc VALUES (4, 'ÙêÄÄ');
INSERT INTO enc VALUES (5, 'Ä');
INSERT INTO enc VALUES (6, 'a‚Ç');
SELECT 1 AS "colˇ";
SELECT 1 /* ˛ */;
SELECT no syntax √ here;
SELECT count(*) FROM enc;
-- valid characters of every length, up to U+10FFFF
INSERT INTO enc VALUES (7, 'caf√© ‚Ç¨ üòÄ Ùèøø');
SELECT id, t, length(t), octet_length(t) FROM enc;
-- escape strings are checked after decoding
SELECT E'\xff';
SELECT E'\xc0\x80';
SELECT E'\355\240\200';
SELECT E'x\000';
SELECT E'a\xe2\x82b';
SELECT E'\303\251' AS e_acute, E'\xe2\x82\xac' AS euro;
SELECT U&'\D800';
SELECT E'\uD800';
SELECT U&'\00E9', E'\u20AC', E'\U0001F600';
SELECT E'\U00110000';
-- in a transaction block the error fails the block
BEGIN;
INSERT INTO enc VALUES (8, 'ok');
INSERT INTO enc VALUES (9, 'ˇ');
SELECT 1;
ROLLBACK;
SELECT id FROM enc ORDER BY id;
-- COPY: each line, and the fields escapes made
COPY enc FROM STDIN;
10	fine √©
11	bad Ìøø
\.
COPY enc FROM STDIN;
12	cut ‚Ç
\.
COPY enc FROM STDIN;
13	\xff\xfe
\.
COPY enc FROM STDIN;
14	\303\251\342\202\254
\.
COPY enc FROM STDIN (FORMAT csv);
15,"quoted ¿Ø"
\.
SELECT id, t FROM enc ORDER BY id;
-- "char" holds one byte and prints a non-ASCII one as an octal escape,
-- so its text is always valid
SELECT (-56)::"char" AS c, ((-56)::"char")::text AS t,
       ('√©'::"char")::text AS first_byte;
-- truncation to a length or to name's 63 bytes never splits a character
SELECT repeat('‚Ç¨', 30)::name AS n,
       octet_length(repeat('‚Ç¨', 30)::name) AS bytes;
SELECT '√©‚Ç¨'::varchar(1) AS v, '√©‚Ç¨'::char(1) AS c,
       left('√©‚Ç¨', 1) AS l, substr('√©‚Ç¨', 2) AS s;
SELECT btrim('√©a', '√£') AS b, rtrim('a√©', '√£') AS r,
       reverse('a√©‚Ç¨üòÄ') AS rev;
-- chr makes text from a code point: never NUL, a surrogate or past U+10FFFF
SELECT chr(65), chr(233), chr(8364), chr(128512),
       chr(1114111) = U&'\+10FFFF' AS max_code_point;
SELECT chr(55295) = U&'\D7FF' AS below, chr(57344) = U&'\E000' AS above,
       octet_length(chr(2047)) AS two, octet_length(chr(2048)) AS three,
       octet_length(chr(65536)) AS four;
SELECT chr(0);
SELECT chr(-1);
SELECT chr(55296);
SELECT chr(57343);
SELECT chr(1114112);
SELECT chr(2147483647);
-- application_name keeps printable ASCII only (each other byte is '?')
SET application_name = E'caf√©\tbar';
SHOW application_name;
RESET application_name;
DROP TABLE enc;
