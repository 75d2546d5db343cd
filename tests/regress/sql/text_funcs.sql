--
-- String functions and operators on text, varchar, char(n) and name,
-- in the C collation, with NULLs
--
SELECT length('hello'), length(''), char_length('héllo'), character_length('abc'), octet_length('héllo');
SELECT lower('MiXeD 123'), upper('MiXeD 123'), initcap('hello wORLD foo-bar'), upper('é');
SELECT 'a' || 'b', 'a' || NULL, NULL || 'b', 'n' || 1 || true, 1 || 'n';
SELECT concat('a', 1, NULL, true, 2.5), concat(NULL), concat('x') || '|';
SELECT concat();
SELECT concat_ws(',', 'a', NULL, 'b', 3), concat_ws(NULL, 'a', 'b'), concat_ws('-', NULL);
SELECT substr('hello', 2), substr('hello', 2, 3), substr('hello', 0, 2), substr('hello', -1, 3), substr('hello', 10);
SELECT substring('hello' FROM 2 FOR 3), substring('hello' FROM 3), substring('hello' FOR 2), substring('hello', 2, 1);
SELECT substr('hello', 1, -1);
SELECT position('l' IN 'hello'), position('z' IN 'hello'), position('' IN 'abc'), strpos('hello', 'lo');
SELECT replace('banana', 'an', 'AN'), replace('banana', '', 'x'), replace('aaa', 'a', '');
SELECT repeat('ab', 3), repeat('x', 0), repeat('x', -1), reverse('abc'), reverse('');
SELECT left('abcdef', 2), left('abcdef', -2), right('abcdef', 2), right('abcdef', -2), left('ab', 10);
SELECT lpad('7', 3, '0'), lpad('hello', 3), lpad('ab', 6, 'xy'), rpad('ab', 5, '-'), rpad('ab', 5), lpad('x', 3, '');
SELECT trim('  x  ') || '|', ltrim('  x  ') || '|', rtrim('  x  ') || '|', btrim('xxaxx', 'x');
SELECT trim(BOTH 'x' FROM 'xxaxx'), trim(LEADING 'x' FROM 'xxaxx'), trim(TRAILING 'x' FROM 'xxaxx'), ltrim('abcba', 'ab');
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 4), split_part('a,b,c', ',', -1), split_part('abc', '', 1);
SELECT split_part('a,b', ',', 0);
SELECT starts_with('hello', 'he'), starts_with('hello', 'lo'), starts_with('', '');
SELECT md5(''), md5('abc'), md5('héllo');
-- NULL in, NULL out (strict functions)
SELECT length(NULL), upper(NULL), substr(NULL, 1), replace('a', NULL, 'b'), lpad('a', NULL), md5(NULL);
SELECT coalesce(upper(NULL), 'was null');
-- comparisons in the C collation
SELECT 'a' < 'b', 'B' < 'a', 'ab' < 'abc', '' < 'a', 'Z' < 'a', 'é' > 'z';
SELECT 'abc' = 'abc', 'abc' <> 'ABC', min('b'), max('b');
CREATE TABLE tf (s text);
INSERT INTO tf VALUES ('banana'), ('Apple'), ('apple'), ('cherry'), (''), (NULL), ('Banana'),
    ('a'), ('ab'), ('b'), ('_x'), ('10'), ('9');
SELECT s FROM tf ORDER BY s;
SELECT s FROM tf ORDER BY s DESC NULLS LAST;
SELECT min(s), max(s) FROM tf;
SELECT s, length(s), upper(s), s || '!' AS bang FROM tf ORDER BY s NULLS FIRST;
SELECT s FROM tf WHERE s > 'b' ORDER BY s;
SELECT lower(s) AS l, count(*) FROM tf GROUP BY lower(s) ORDER BY l;
-- varchar(n), char(n) and name
CREATE TABLE tc (v varchar(5), c char(5), n name);
INSERT INTO tc VALUES ('ab', 'ab', 'ab'), ('abcde', 'abcde', 'abcde'), ('a ', 'a ', 'a ');
SELECT v || '|', c || '|', n || '|', length(v), length(c), length(n), octet_length(c) FROM tc ORDER BY v;
SELECT c = 'ab', c = 'ab   ', v = 'ab   ', c < 'abc' FROM tc ORDER BY v;
SELECT count(*) FROM tc WHERE c = 'a';
SELECT upper(c), lower(v), reverse(c) || '|' FROM tc ORDER BY v;
INSERT INTO tc (v) VALUES ('abcdef');
INSERT INTO tc (c) VALUES ('abcdef');
INSERT INTO tc (v, c) VALUES ('abcde     ', 'abcde     ');
SELECT v || '|', c || '|' FROM tc WHERE v LIKE 'abcde%' ORDER BY v;
SELECT repeat('x', 100)::name = repeat('x', 63)::name, length(repeat('é', 40)::name);
-- errors
SELECT length(1);
SELECT substr('abc', 'x');
SELECT nosuchfunc('a');
SELECT upper('a', 'b');
SELECT repeat('x', 'y');
DROP TABLE tf, tc;
-- overlay of text counts characters (not bytes), as PostgreSQL's textoverlay
SELECT overlay('é€' placing 'x' from 1 for 1);
SELECT overlay('abcdef' placing 'x' from 3 for -1), overlay('abcdef' placing 'xyz' from 5), overlay('abc' placing 'x' from 7);
SELECT overlay('abc' placing 'x' from 2 for -2147483647), overlay('abc' placing '' from 2), overlay('' placing 'ü€' from 1 for 3);
SELECT overlay('Txxxxas' placing 'hom' from 2 for 4), overlay('ñandú€x' placing 'ÿ' from 3), overlay('abc'::varchar placing 'é' from 3 for 0);
SELECT overlay('abc' placing NULL from 1), overlay(NULL placing 'x' from 1 for 1), overlay('abc' placing 'x' from NULL);
SELECT overlay('abc' placing 'x' from 0);
SELECT overlay('abc' placing 'x' from 2147483647 for 1);
SELECT overlay('abc' placing 'x' from -1 for 1);
SELECT overlay('\x616263'::bytea placing '\x78'::bytea from 2);
