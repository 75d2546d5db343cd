--
-- bytea: input in the hex and escape formats, hex output, comparisons,
-- hashing (GROUP BY, DISTINCT, hash joins), the functions and operators,
-- casts with the string types, NULLs and errors.
--

-- hex input: either case, whitespace between digit pairs
SELECT '\x'::bytea AS empty, '\x00'::bytea AS zero, '\xDeadBeef'::bytea AS mixed;
SELECT E'\\x 01 ab\n\tcd\r'::bytea AS spaced, '\x0123456789abcdefABCDEF'::bytea AS all_digits;
SELECT '\x1'::bytea;
SELECT '\x 1 2'::bytea;
SELECT '\xzz'::bytea;
SELECT '\x0g'::bytea;
SELECT '\xé1'::bytea;
SELECT '\x\x'::bytea;
-- escape input: octal escapes with first digit 0-3, doubled backslashes
SELECT 'abc'::bytea AS plain, ''::bytea AS empty, 'a\\b'::bytea AS backslash;
SELECT 'a\000b'::bytea AS nul, '\001\177\200\377'::bytea AS octal, 'é'::bytea AS utf8;
SELECT 'x\'::bytea;
SELECT 'a\400'::bytea;
SELECT 'a\9'::bytea;
SELECT 'a\01'::bytea;
SELECT 'a\08'::bytea;
SELECT '\X00'::bytea;
SELECT 'ab\\\'::bytea;

-- comparisons: bytewise, then the shorter first
SELECT '\x00'::bytea < '\x0000'::bytea AS shorter, '\xff'::bytea > '\x00ff'::bytea AS bytewise,
       '\x80'::bytea > '\x7f'::bytea AS unsigned, 'abc'::bytea = '\x616263'::bytea AS eq;
SELECT 'a'::bytea <> 'b'::bytea AS ne, 'a'::bytea <= 'a'::bytea AS le,
       'b'::bytea >= 'a'::bytea AS ge, ''::bytea < '\x00'::bytea AS empty_first;
SELECT NULL::bytea = 'a'::bytea AS null_eq, 'a'::bytea || NULL AS null_cat;

CREATE TABLE blobs (id int, b bytea);
INSERT INTO blobs VALUES (1, '\xff'), (2, '\x00'), (3, ''), (4, '\x0000'),
  (5, 'abc'), (6, NULL), (7, '\x00'), (8, '\x7f80');
SELECT id, b FROM blobs ORDER BY b, id;
SELECT id, b FROM blobs ORDER BY b DESC NULLS LAST, id;
SELECT b, count(*) FROM blobs GROUP BY b ORDER BY b;
SELECT DISTINCT b FROM blobs ORDER BY b;
SELECT x.id, y.id FROM blobs x JOIN blobs y ON x.b = y.b AND x.id < y.id ORDER BY 1, 2;
SELECT id FROM blobs WHERE b > '\x00' ORDER BY id;
SELECT string_agg(b, '\x2c' ORDER BY id) FROM blobs;
SELECT string_agg(b, NULL) FROM blobs WHERE id IN (1, 5);
SELECT string_agg(b, '\x00') FROM blobs WHERE false;

-- || and the lengths
SELECT '\x01'::bytea || '\x0203'::bytea AS cat, ''::bytea || ''::bytea AS empty_cat;
SELECT length('\x010203'::bytea), octet_length('é'::bytea), bit_length('\x0102'::bytea),
       bit_count('\xff0f'::bytea), length(''::bytea);

-- substr / substring (byte positions)
SELECT substring('\x0102030405'::bytea FROM 2 FOR 2) AS a, substring('\x0102030405'::bytea FROM 3) AS b,
       substring('\x0102'::bytea FROM -1 FOR 3) AS c, substring('\x0102'::bytea FROM 5) AS d,
       substring('\x0102'::bytea FROM 0 FOR 1) AS e, substring('\x0102'::bytea FROM 2 FOR 2147483647) AS f;
SELECT substr('\x010203'::bytea, 2) AS a, substr('\x010203'::bytea, 1, 0) AS b, substr('abc'::bytea, -5, 7) AS c;
SELECT substring('\x0102'::bytea FROM 1 FOR -1);
SELECT substr('\x0102'::bytea, 1, -2);

-- position, overlay, trims
SELECT position('\x03'::bytea IN '\x01020302'::bytea) AS found, position('\x04'::bytea IN '\x0102'::bytea) AS missing,
       position(''::bytea IN '\x01'::bytea) AS empty_needle, position('\x0203'::bytea IN '\x010203'::bytea) AS two;
SELECT overlay('\x010203'::bytea PLACING '\xff' FROM 2) AS a, overlay('\x010203'::bytea PLACING '\xff' FROM 2 FOR 0) AS b,
       overlay('\x01'::bytea PLACING '\x02' FROM 1 FOR -5) AS c, overlay('\x0102'::bytea PLACING '\xaabb' FROM 5) AS d;
SELECT overlay('\x01'::bytea PLACING '\x02' FROM 0);
SELECT btrim('\x0001020100'::bytea, '\x00') AS b, ltrim('\x000001'::bytea, '\x00') AS l,
       rtrim('\x010000'::bytea, '\x00') AS r, btrim('\x0102'::bytea, ''::bytea) AS none,
       btrim('\x0101'::bytea, '\x01') AS all_gone;

-- bytes and bits
SELECT get_byte('\x01ff'::bytea, 0) AS first, get_byte('\x01ff'::bytea, 1) AS last;
SELECT get_byte('\x0102'::bytea, 2);
SELECT get_byte('\x0102'::bytea, -1);
SELECT get_byte(''::bytea, 0);
SELECT set_byte('\x0102'::bytea, 1, 300) AS wrapped, set_byte('\x0102'::bytea, 0, 255) AS ff;
SELECT set_byte('\x0102'::bytea, 5, 3);
SELECT get_bit('\x0180'::bytea, 0) AS b0, get_bit('\x0180'::bytea, 1) AS b1, get_bit('\x0180'::bytea, 15) AS b15;
SELECT set_bit('\x0000'::bytea, 9, 1) AS set9, set_bit('\xffff'::bytea, 0, 0) AS clear0;
SELECT get_bit('\x01'::bytea, 8);
SELECT set_bit('\x01'::bytea, 9, 2);
SELECT set_bit('\x01'::bytea, 1, 2);

-- md5, encode, decode
SELECT md5(''::bytea), md5('\x00'::bytea), md5('abc'::bytea);
SELECT encode('\x00ff5c41'::bytea, 'escape') AS esc, encode('abc'::bytea, 'base64') AS b64,
       encode('\x0aff'::bytea, 'hex') AS hex, encode(''::bytea, 'base64') AS empty;
SELECT encode('a'::bytea, 'BASE64') AS one, encode('ab'::bytea, 'Base64') AS two, encode('\xfbff'::bytea, 'base64') AS high;
SELECT encode(repeat('x', 57)::bytea, 'base64') AS line_exactly;
SELECT encode(repeat('xyz', 40)::bytea, 'base64') AS lines;
SELECT decode('YWJj', 'base64') AS a, decode('YW=j', 'base64') AS b, decode(' Y Q = = ', 'base64') AS c,
       decode('YQ==YQ==', 'base64') AS d, decode('', 'base64') AS e;
SELECT decode('YWJ', 'base64');
SELECT decode('Y!Jj', 'base64');
SELECT decode('Yé==', 'base64');
SELECT decode('=', 'base64');
SELECT decode('0aFF', 'hex') AS hex, decode(' 01 02 ', 'hex') AS spaced, decode('a\\b\101\000', 'escape') AS esc;
SELECT decode('a', 'hex');
SELECT decode('zz', 'hex');
SELECT decode('a\', 'escape');
SELECT encode('abc'::bytea, 'foo');
SELECT decode('abc', 'rot13');
SELECT encode(decode('3q2+7w==', 'base64'), 'hex') AS round_trip;

-- LIKE on bytea: '_' is one byte
SELECT 'abc'::bytea LIKE 'a%'::bytea AS prefix, '\xc3a9'::bytea LIKE '_'::bytea AS one_byte,
       '\xc3a9'::bytea LIKE '__'::bytea AS two_bytes, 'a%'::bytea NOT LIKE 'a\\%'::bytea AS escaped, 'ab'::bytea NOT LIKE 'a\\%'::bytea AS escaped2;
SELECT id FROM blobs WHERE b LIKE '\000%' ORDER BY id;

-- casts with the string types (through the I/O functions)
SELECT 'abc'::text::bytea AS from_text, '\x6162'::bytea::text AS to_text,
       'a\\b'::varchar::bytea AS from_varchar, '\x00'::bytea::varchar(10) AS to_varchar;
SELECT CAST('\x41'::bytea AS char(6)) AS to_char6, 'xyz'::name::bytea AS from_name;
CREATE TABLE bt (t text, b bytea);
INSERT INTO bt VALUES ('\x41', '\x42');
INSERT INTO bt (t) SELECT b FROM bt;
SELECT * FROM bt ORDER BY t;
INSERT INTO bt (b) SELECT t FROM bt;
SELECT 1::bytea;
SELECT '\x01'::bytea + 1;
