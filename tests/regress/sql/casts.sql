--
-- Casts: CAST(... AS ...) and ::, text input of each type, numeric
-- rounding, typmods, invalid input (22P02), out of range (22003), casts
-- that do not exist (42846)
--
SELECT CAST('123' AS int), '123'::int4, '  -42  '::int, '+7'::int2, '0'::int8;
SELECT '9223372036854775807'::int8, '-2147483648'::int4, '32767'::smallint;
SELECT 'abc'::int;
SELECT '12a'::int4;
SELECT ''::int;
SELECT '1.5'::int;
SELECT '2147483648'::int4;
SELECT '-32769'::int2;
SELECT '99999999999999999999'::int8;
-- between the integer types
SELECT 32767::int2::int4, 2147483647::int4::int8, 100::int8::int2;
SELECT 40000::int4::int2;
SELECT 3000000000::int8::int4;
SELECT (-2147483648)::int8::int4;
-- numeric to integer rounds half away from zero
SELECT 2.5::int, 3.5::int, -2.5::int, -3.5::int, 2.4999::int, 0.5::int2, -0.5::int8;
SELECT CAST(1234.5678 AS int), 1e9::int, 2147483647.4::int4;
SELECT 2147483647.5::int4;
SELECT 32767.5::int2;
-- integer to numeric, numeric typmods
SELECT 12::numeric, 12::numeric(5,2), 1.005::numeric(5,2), -1.005::numeric(5,2), 0.004::numeric(3,2);
SELECT 123.456::numeric(6,1), 99.995::numeric(5,2) AS rounds_up, 12345.6::numeric(5,0);
SELECT 999.995::numeric(5,2);
SELECT 100::numeric(2,0);
SELECT '1.23'::numeric, ' 1.5 '::numeric, '-0'::numeric, '1e2'::numeric, '.5'::numeric, '5.'::numeric;
SELECT 'NaN'::numeric, 'nan'::numeric;
SELECT '1.2.3'::numeric;
SELECT 'x'::numeric;
-- bool
SELECT 't'::bool, 'true'::bool, 'yes'::bool, 'on'::bool, '1'::bool, 'TRUE'::bool, ' y '::bool;
SELECT 'f'::bool, 'false'::bool, 'no'::bool, 'off'::bool, '0'::bool, 'n'::bool;
SELECT 'maybe'::bool;
SELECT 'o'::bool;
SELECT 1::bool, 0::bool, 5::bool, true::int, false::int;
SELECT 1::int8::bool;
SELECT true::int8;
SELECT true::text, false::varchar, 'true'::text::bool;
SELECT true::numeric;
-- to and from text
SELECT 42::text, (-42)::int8::text, 1.50::text, 42::text || 'x';
SELECT '42'::text::int + 1, CAST('7' AS text)::int2;
SELECT 'abc'::text::int;
SELECT 12345::varchar(3);
SELECT 'abcdef'::varchar(3), 'abcdef'::char(3), 'ab'::char(3) || '|', 'ab'::varchar(3) || '|';
SELECT 'abc   '::char(3)::text || '|', 'ab '::char(5)::varchar || '|', 'abc'::name::text;
SELECT CAST('long string' AS character varying(4)), CAST('x' AS character(3));
SELECT 'ab'::char(2) = 'ab  '::char(4), 'ab'::text = 'ab  '::text;
-- oid and name
SELECT 42::oid, '4294967295'::oid, '-1'::oid, 7::oid::int4;
SELECT 'x'::name, 'A Name'::name, length(repeat('n', 70)::name);
SELECT 'abc'::oid;
-- unknown literals take the type the context wants
SELECT '1' + 2, '3'::int + '4', 1 = '1', 'a' || 1;
SELECT '1' = '1';
SELECT 1 + '1.5';
-- casts that do not exist, and unknown types
SELECT 1::nosuchtype;
SELECT CAST(1 AS nosuchtype);
SELECT true::int2;
SELECT 1.5::bool;
SELECT 'a'::text::bool;
SELECT '1'::text::bool;
-- nested and chained casts
SELECT 1.7::int::text::numeric::int8, ((('5')::int)::numeric(3,1))::text;
SELECT CAST(CAST(CAST(255 AS int2) AS text) AS int8) + 1;
SELECT CAST(NULL AS int), NULL::text IS NULL, CAST(NULL AS bool) IS UNKNOWN;
-- casting column values, including failures partway through a table
CREATE TABLE ct (t text);
INSERT INTO ct VALUES ('1'), ('22'), (' 333 '), (NULL);
SELECT t, t::int, t::int * 2 AS twice, t::numeric(5,1) FROM ct ORDER BY t::int;
INSERT INTO ct VALUES ('four');
SELECT t::int FROM ct;
SELECT sum(t::int) FROM ct WHERE t <> 'four';
DROP TABLE ct;
