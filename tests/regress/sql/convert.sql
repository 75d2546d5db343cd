--
-- convert_from, convert_to, convert: text from and to bytes in a named
-- encoding.  The database encoding is UTF8, and bytes that become text
-- are checked as everywhere else (22021); a character with no
-- equivalent in the destination is 22P05.
--
-- UTF8: the bytes are checked even though nothing is converted
SELECT convert_from('\x636166c3a9', 'UTF8');
SELECT convert_from('\xe282ac20f09f9880', 'UTF8');
SELECT convert_from('\xff', 'UTF8');
SELECT convert_from('\x41ff42', 'UTF8');
SELECT convert_from('\xc080', 'UTF8');
SELECT convert_from('\xeda080', 'UTF8');
SELECT convert_from('\xf4908080', 'UTF8');
SELECT convert_from('\x41c3', 'UTF8');
SELECT convert_from('\xe282', 'UTF8');
SELECT convert_from('\x4100', 'UTF8');
SELECT convert_from('\x80', 'UTF8');
SELECT convert_to('café €', 'UTF8');
SELECT convert('\xc3a9', 'UTF8', 'UTF8');
SELECT convert('\xc3', 'UTF8', 'UTF8');
-- encoding names: letters and digits only, any case, and the aliases
SELECT convert_from('\xc3a9', 'utf-8'), convert_from('\xc3a9', 'Unicode'),
       convert_from('\xc3a9', ' u t f 8 '), convert_from('\xe9', 'iso-8859-1'),
       convert_from('\xe9', 'ISO_8859_1'), convert_from('\xe9', 'latin1'),
       convert_from('\xe9', 'Iso88591'), convert_from('\x41', 'sql-ascii');
SELECT name, pg_char_to_encoding(name),
       pg_encoding_to_char(pg_char_to_encoding(name))
FROM (VALUES
  ('abc'),
  ('alt'),
  ('big5'),
  ('euccn'),
  ('eucjis2004'),
  ('eucjp'),
  ('euckr'),
  ('euctw'),
  ('gb18030'),
  ('gbk'),
  ('iso88591'),
  ('iso885910'),
  ('iso885913'),
  ('iso885914'),
  ('iso885915'),
  ('iso885916'),
  ('iso88592'),
  ('iso88593'),
  ('iso88594'),
  ('iso88595'),
  ('iso88596'),
  ('iso88597'),
  ('iso88598'),
  ('iso88599'),
  ('johab'),
  ('koi8'),
  ('koi8r'),
  ('koi8u'),
  ('latin1'),
  ('latin10'),
  ('latin2'),
  ('latin3'),
  ('latin4'),
  ('latin5'),
  ('latin6'),
  ('latin7'),
  ('latin8'),
  ('latin9'),
  ('mskanji'),
  ('muleinternal'),
  ('shiftjis'),
  ('shiftjis2004'),
  ('sjis'),
  ('sqlascii'),
  ('tcvn'),
  ('tcvn5712'),
  ('uhc'),
  ('unicode'),
  ('utf8'),
  ('vscii'),
  ('win'),
  ('win1250'),
  ('win1251'),
  ('win1252'),
  ('win1253'),
  ('win1254'),
  ('win1255'),
  ('win1256'),
  ('win1257'),
  ('win1258'),
  ('win866'),
  ('win874'),
  ('win932'),
  ('win936'),
  ('win949'),
  ('win950'),
  ('windows1250'),
  ('windows1251'),
  ('windows1252'),
  ('windows1253'),
  ('windows1254'),
  ('windows1255'),
  ('windows1256'),
  ('windows1257'),
  ('windows1258'),
  ('windows866'),
  ('windows874'),
  ('windows932'),
  ('windows936'),
  ('windows949'),
  ('windows950'),
  ('UTF-8'),
  ('Utf_8'),
  (' u t f 8 '),
  ('ISO-8859-1'),
  ('iso_8859_1'),
  ('LATIN-1'),
  ('SQL_ASCII'),
  ('Shift_JIS'),
  ('EUC-JP'),
  ('KOI8-R'),
  ('Windows-1252'),
  ('utf8mb4'),
  ('latin11'),
  ('l1'),
  ('ascii'),
  ('iso8859'),
  (''),
  ('-'),
  ('utf8é')) AS v(name);
SELECT i, pg_encoding_to_char(i), pg_encoding_max_length(i)
FROM generate_series(-1, 43) AS i;
SELECT pg_encoding_to_char(2147483647) = '' AS empty, getdatabaseencoding();
-- unknown names: the source is looked at first
SELECT convert_from('\x41', 'foo');
SELECT convert_from('\x41', '');
SELECT convert_to('a', 'bar');
SELECT convert('\x41', 'foo', 'bar');
SELECT convert('\x41', 'utf8', 'bar');
SELECT convert('\xff', 'foo', 'utf8');
SELECT convert_from('\x41', 'l1');
-- LATIN1: every byte but NUL is a character, U+0001..U+00FF
SELECT convert_from('\x636166e9', 'LATIN1');
SELECT convert_from('\x41e9ff80a0', 'latin1') AS t,
       length(convert_from('\x41e9ff80a0', 'latin1')),
       octet_length(convert_from('\x41e9ff80a0', 'latin1'));
SELECT convert_from('\x4100', 'LATIN1');
SELECT convert_from('\x00', 'LATIN1');
SELECT convert_to('café', 'LATIN1');
SELECT convert_to('ÿ¡ ', 'LATIN1');
SELECT convert_to('café €', 'LATIN1');
SELECT convert_to('a😀', 'LATIN1');
SELECT convert_to('Ā', 'LATIN1');
SELECT convert('\xe9', 'LATIN1', 'UTF8'), convert('\xc3a9', 'UTF8', 'LATIN1');
SELECT convert('\xff', 'UTF8', 'LATIN1');
SELECT convert('\xc3a9e282ac', 'UTF8', 'LATIN1');
SELECT convert('\xe900', 'LATIN1', 'LATIN1');
SELECT convert('\xe9', 'LATIN1', 'LATIN1');
-- round trips through every byte
SELECT convert_to(convert_from(b, 'LATIN1'), 'LATIN1') = b AS latin1_round_trip,
       length(convert_from(b, 'LATIN1')) AS chars,
       octet_length(convert_from(b, 'LATIN1')) AS utf8_bytes,
       convert(convert(b, 'LATIN1', 'UTF8'), 'UTF8', 'LATIN1') = b AS via_convert,
       convert_from(convert_to(convert_from(b, 'LATIN1'), 'UTF8'), 'UTF8')
         = convert_from(b, 'LATIN1') AS utf8_round_trip
FROM (VALUES ('\x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff'::bytea)) AS v(b);
-- SQL_ASCII: any byte but NUL, and no conversion; the text must still be UTF-8
SELECT convert_from('\xc3a9', 'SQL_ASCII');
SELECT convert_from('\xe9', 'SQL_ASCII');
SELECT convert_from('\x4100', 'SQL_ASCII');
SELECT convert_to('é', 'SQL_ASCII');
SELECT convert('\xe9', 'LATIN1', 'SQL_ASCII'), convert('\xe9', 'SQL_ASCII', 'LATIN1');
SELECT convert('\xe9', 'SQL_ASCII', 'UTF8');
SELECT convert('\x00', 'SQL_ASCII', 'LATIN1');
-- pairs PostgreSQL has no conversion for
SELECT convert('\xe9', 'LATIN1', 'LATIN2');
SELECT convert('\x41', 'LATIN1', 'WIN1252');
SELECT convert('\x41', 'MULE_INTERNAL', 'UTF8');
SELECT convert_to('a', 'MULE_INTERNAL');
-- ASCII means the same in every encoding
SELECT convert_to('abc', 'LATIN2'), convert_to('abc', 'WIN1252'),
       convert_to('abc', 'EUC_JP'), convert_to('abc', 'SJIS');
SELECT convert_from('\x616263', 'KOI8R'), convert_from('\x616263', 'BIG5'),
       convert('\x41', 'LATIN2', 'WIN1250'), convert('\x41', 'EUC_JP', 'SJIS');
SELECT convert('\x4100', 'LATIN2', 'WIN1250');
SELECT convert_from('\x4100', 'EUC_JP');
SELECT convert('\x41', 'EUC_JP', 'EUC_JP'), convert('\x41', 'SQL_ASCII', 'GB18030');
-- empty input
SELECT convert_from('', 'latin1') = '' AS empty, convert('', 'utf8', 'latin1'),
       convert_to('', 'win1252');
SELECT convert('', 'utf8', 'nope');
-- NULL: the functions are strict, so even a bad name gives NULL
SELECT convert_from(NULL, 'UTF8') IS NULL, convert_from('\xff', NULL) IS NULL,
       convert_to(NULL, 'foo') IS NULL, convert('\xff', 'foo', NULL) IS NULL,
       length('\xff'::bytea, NULL) IS NULL, pg_encoding_to_char(NULL) IS NULL,
       pg_char_to_encoding(NULL) IS NULL;
-- length(bytea, name): the characters the bytes make in an encoding
SELECT length('\x636166c3a9'::bytea, 'UTF8'), length('\x636166c3a9'::bytea, 'LATIN1'),
       length('\x636166c3a9'::bytea, 'sql_ascii'), length(''::bytea, 'utf8');
SELECT length('\x41ff'::bytea, 'UTF8');
SELECT length('\x4100'::bytea, 'LATIN1');
SELECT length('\x41'::bytea, 'foo');
-- the result of bytea as text is its hex text, not its bytes
SELECT '\xc3a9ff'::bytea::text, CAST(convert_to('é', 'LATIN1') AS text);
-- into a table: a failed conversion changes nothing
CREATE TABLE cv (id int, t text);
INSERT INTO cv VALUES (1, convert_from('\x636166e9', 'LATIN1')),
                      (2, convert_from('\x636166c3a9', 'UTF8'));
INSERT INTO cv VALUES (3, convert_from('\x636166e9', 'UTF8'));
INSERT INTO cv SELECT 4, convert_from(b, 'UTF8')
FROM (VALUES ('\x41'::bytea), ('\xfe'::bytea)) AS v(b);
UPDATE cv SET t = convert_from('\xc0af', 'UTF8') WHERE id = 1;
UPDATE cv SET t = convert_from(convert_to(t, 'LATIN1'), 'LATIN1') || '!';
SELECT id, t, length(t), convert_to(t, 'LATIN1') FROM cv ORDER BY id;
SELECT id, convert_to(t || '€', 'LATIN1') FROM cv ORDER BY id;
DROP TABLE cv;
