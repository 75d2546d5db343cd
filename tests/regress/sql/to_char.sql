--
-- to_char(int4|int8|numeric, text) and to_number(text, text): every
-- number template pattern, fill mode, overflow, rounding, signs,
-- special values, errors, NULLs
--
CREATE TABLE tc (id int4, i int4, b int8, n numeric);
INSERT INTO tc VALUES
  (1, 0, 0, 0),
  (2, 1, 1, 0.5),
  (3, -1, -1, -0.5),
  (4, 12, 123456789012, 12.345),
  (5, -12, -123456789012, -12.345),
  (6, 1234, 9223372036854775807, 1234.5678),
  (7, -1234, -9223372036854775808, -1234.5678),
  (8, 2147483647, 4567890123456789, 0.001),
  (9, -2147483648, -4567890123456789, -0.004),
  (10, 99999, 100000, 99999.995);
-- digits: 9 pads with blanks, 0 with zeroes; the sign goes in front
SELECT id, to_char(i, '999999') AS i9, to_char(i, '000000') AS i0,
       to_char(b, '999999') AS b9, to_char(n, '999999') AS n9
  FROM tc ORDER BY id;
SELECT id, to_char(n, '9999.99') AS a, to_char(n, '0000.00') AS b,
       to_char(n, '9990.999') AS c, to_char(n, '99990.0') AS d
  FROM tc ORDER BY id;
SELECT id, to_char(i, '9,999,999,999') AS i, to_char(b, '9G999G999G999G999G999G999') AS b
  FROM tc ORDER BY id;
-- overflow: '#' in every digit position
SELECT to_char(12345, '999'), to_char(-12345, '999'), to_char(12345, '99.99');
SELECT to_char(123456789012::int8, '9999'), to_char(99.995::numeric, '99.99');
SELECT to_char(999.5::numeric, '999'), to_char(-999.5::numeric, '999'), to_char(0.5, '.9');
SELECT to_char(12, 'FM9'), to_char(1234, 'S99'), to_char(1234, '99PR'), to_char(-1234, '9,9');
-- rounding half away from zero to the template's fraction digits
SELECT to_char(0.5, '9'), to_char(1.5, '9'), to_char(2.5, '9'), to_char(-2.5, '9');
SELECT to_char(0.125, '9.99'), to_char(0.135, '9.99'), to_char(-0.125, '9.99');
SELECT to_char(99.95, '99.9'), to_char(9.995, '9.99'), to_char(0.0049, '9.99');
-- zero and negative zero: a value that rounds to zero prints unsigned
SELECT to_char(0, '9'), to_char(0, '0'), to_char(0, '9.9'), to_char(0, '0.0');
SELECT to_char(-0.001, '9.99'), to_char(-0.004, 'S9.99'), to_char(-0.0, '9.9');
SELECT to_char(-0.001, 'FM9.99'), to_char(-0.006, 'FM9.99'), to_char(0::int8, 'FM0.00');
-- leading zero of a fraction: blank with 9, kept with 0
SELECT to_char(0.5, '9.9'), to_char(0.5, '0.9'), to_char(-0.5, '9.9'), to_char(-0.5, '0.9');
SELECT to_char(0.05, '99.99'), to_char(0.05, '90.99'), to_char(0.05, '00.99');
-- period and D (the C locale's decimal point)
SELECT to_char(3.14159, '9.99999'), to_char(3.14159, '9D99'), to_char(3, '9D999');
SELECT to_char(12, '99.'), to_char(12, '99D'), to_char(12.7, '99.'), to_char(-12.7, '99D');
-- comma and G: a blank before the first digit
SELECT to_char(1234567, '9,999,999'), to_char(123, '9,999,999'), to_char(-123, '9G999G999');
SELECT to_char(1234567, '9G999G999D99'), to_char(0.5, '9,999.99'), to_char(12, '0,000');
SELECT to_char(1234, ',9999'), to_char(1234, '9999,'), to_char(1234, '9,,999');
-- fill mode: no padding blanks, no trailing fraction zeroes
SELECT to_char(12, 'FM9999'), to_char(-12, 'FM9999'), to_char(12, 'FM0000');
SELECT to_char(12.5, 'FM9999.99'), to_char(12, 'FM9999.99'), to_char(12.5, 'FM9999.00');
SELECT to_char(12.5, 'FM9999.90'), to_char(12.5, 'FM9999.9009'), to_char(0.5, 'FM9.99');
SELECT to_char(0, 'FM9.99'), to_char(0, 'FM0.99'), to_char(0, 'FM9'), to_char(0.0001, 'FM9.99');
SELECT to_char(1234567, 'FM9,999,999'), to_char(123, 'FM9,999,999'), to_char(123, 'FM9G999G999');
SELECT to_char(-0.5, 'FM9.99'), to_char(1.5, 'FM9.000'), to_char(100, 'FM999.'), to_char(-100, 'FM999.99');
SELECT id, to_char(n, 'FM99999.999') AS fm, to_char(n, 'fm00000.000') AS fm0
  FROM tc ORDER BY id;
-- S: locale sign, before the number or (after the digits) after it
SELECT to_char(12, 'S999'), to_char(-12, 'S999'), to_char(0, 'S999'), to_char(12, 'S000');
SELECT to_char(12, '999S'), to_char(-12, '999S'), to_char(12.5, '99.9S'), to_char(-12.5, '99.9S');
SELECT to_char(12, '9S99'), to_char(-12, '9S99'), to_char(-12, 'FMS999'), to_char(12, 'FM999S');
SELECT to_char(-0.5, 'S9.9'), to_char(0.5, 'S0.9'), to_char(-12.5, 'S99.99'), to_char(-12.5, 'FMS99.99');
-- MI, PL, SG: a sign character where the pattern stands
SELECT to_char(12, '999MI'), to_char(-12, '999MI'), to_char(12, 'MI999'), to_char(-12, 'MI999');
SELECT to_char(12, '999PL'), to_char(-12, '999PL'), to_char(12, 'PL999'), to_char(-12, 'PL999');
SELECT to_char(12, '999SG'), to_char(-12, '999SG'), to_char(12, 'SG999'), to_char(-12, 'SG999');
SELECT to_char(12, 'FM999MI'), to_char(-12, 'FM999MI'), to_char(12, 'FMPL999'), to_char(-12, 'FMPL999');
SELECT to_char(-12.5, '99.9MI'), to_char(12.5, '99.9PL'), to_char(-12.5, 'SG99.9'), to_char(-12, 'MI99PL');
SELECT to_char(0, 'SG9'), to_char(0, 'PL9'), to_char(0, 'MI9'), to_char(-1::int8, 'mi99'), to_char(1::int8, 'pl99sg');
-- PR: angle brackets around negative values
SELECT to_char(12, '999PR'), to_char(-12, '999PR'), to_char(-12.5, '999.99PR'), to_char(0, '9PR');
SELECT to_char(12, 'FM999PR'), to_char(-12, 'FM999PR'), to_char(-12.5, 'FM999.99PR'), to_char(-0.5, '9.9PR');
SELECT to_char(-1234567, '9,999,999PR'), to_char(-12, '0000PR'), to_char(-12::int8, '00.00pr');
-- L: currency symbol (none in the C locale: a blank)
SELECT to_char(12, 'L999'), to_char(-12, 'L999'), to_char(12, 'FML999'), to_char(12.5, '999.99L');
-- V: multiply by 10^(digits after V)
SELECT to_char(12, '99V9'), to_char(12, '99V999'), to_char(-12, '99V99'), to_char(12, 'FM99V99');
SELECT to_char(12.345, '99V99'), to_char(12.345, '99V9999'), to_char(-0.5, '9V9'), to_char(1.5, 'V9');
SELECT to_char(123456789012::int8, '999999999999999V999'), to_char(12::int8, '9V9'), to_char(5, 'S9V99');
SELECT to_char(123456789, '9V99999'), to_char(3, '9V9999999999'), to_char(12, '99V');
-- TH, th: ordinal suffixes
SELECT to_char(1, '9TH'), to_char(2, '9TH'), to_char(3, '9TH'), to_char(4, '9TH'), to_char(0, '9th');
SELECT to_char(11, '99th'), to_char(12, '99th'), to_char(13, '99th'), to_char(21, '99th'), to_char(22, '99TH');
SELECT to_char(23, '99th'), to_char(101, '999th'), to_char(111, '999TH'), to_char(112, 'FM999th'), to_char(1000, '9999TH');
SELECT to_char(-1, '9TH'), to_char(1.5, '9.9TH'), to_char(1234, '99TH'), to_char(12::int8, '99th'), to_char(13.0, '99TH');
-- RN, rn: Roman numerals (1..3999, else '#'); FM drops the padding
SELECT to_char(1, 'RN'), to_char(4, 'RN'), to_char(9, 'RN'), to_char(14, 'RN'), to_char(40, 'RN');
SELECT to_char(1999, 'RN'), to_char(2024, 'rn'), to_char(3888, 'RN'), to_char(3999, 'FMRN'), to_char(494, 'FMrn');
SELECT to_char(0, 'RN'), to_char(4000, 'RN'), to_char(-5, 'RN'), to_char(2.5, 'RN'), to_char(3.5, 'FMRN');
SELECT to_char(12::int8, 'FMRN'), to_char(12, 'RN999'), to_char(12, 'SRN'), to_char(12, '"n"FMRN"."');
SELECT to_char(12, 'RNRN'), to_char(12, 'RNTH'), to_char(12, 'FMRNMI'), to_char(12, 'RNSG'), to_char(12, 'SGRN');
SELECT id, to_char(i, 'FMRN') AS i, to_char(n, 'FMRN') AS n FROM tc WHERE id BETWEEN 1 AND 6 ORDER BY id;
-- EEEE: scientific notation
SELECT to_char(123, '9.99EEEE'), to_char(-123, '9.99EEEE'), to_char(0, '9.99EEEE'), to_char(1, '9EEEE');
SELECT to_char(125, '9.9EEEE'), to_char(125::int8, '9.9EEEE'), to_char(125::numeric, '9.9EEEE');
SELECT to_char(9.99, '9.9EEEE'), to_char(0.000123, '9.99EEEE'), to_char(-0.000123, '99.9eeee');
SELECT to_char(123456789012::int8, '9.999EEEE'), to_char(1e100, '9.9EEEE'), to_char(1.5e-100, '9.9EEEE');
SELECT to_char(12345, '9999.999EEEE'), to_char(12345, '.99EEEE'), to_char(12345, 'EEEE');
SELECT to_char(123, '"x"9.99EEEE"y"'), to_char(123, '0.00EEEE'), to_char(-9223372036854775808, '9.9EEEE');
SELECT id, to_char(n, '9.999EEEE') AS n, to_char(b, '9.99EEEE') AS b FROM tc ORDER BY id;
-- NaN and infinities (numeric)
SELECT to_char('NaN'::numeric, '9999'), to_char('NaN'::numeric, '99'), to_char('NaN'::numeric, '9999.99');
SELECT to_char('Infinity'::numeric, '9999999999'), to_char('-Infinity'::numeric, '99'), to_char('Infinity'::numeric, 'FM9999999999');
SELECT to_char('NaN'::numeric, '9.99EEEE'), to_char('Infinity'::numeric, '99.9EEEE'), to_char('-Infinity'::numeric, 'EEEE');
-- literal text: quoted strings, backslash escapes, other characters
SELECT to_char(12, '"Total: "999'), to_char(12, '999" units"'), to_char(-12, '"["S999"]"');
SELECT to_char(12, '"9 PR S"999'), to_char(12, '"a\"b"999'), to_char(12, '\"99\"'), to_char(12, '99\9');
SELECT to_char(12, 'x99y'), to_char(12, '$999'), to_char(12, '9 9 9'), to_char(12, '"unterminated 9');
SELECT to_char(12, '99%'), to_char(1234, '9-9-9-9'), to_char(12, 'ab9cd'), to_char(12, '€999');
SELECT to_char(5, 'E9'), to_char(5, 'EEE9'), to_char(5, 'T9'), to_char(5, 'P9'), to_char(5, 'Fm9');
-- patterns that print nothing (B, C, SP) and lower-case spellings
SELECT to_char(12, 'B999'), to_char(12, 'C999'), to_char(12, '999SP'), to_char(12, 'b9c9sp9');
SELECT to_char(-1234.5, 'fms9g999d99'), to_char(1234.5, 'l9,999.99'), to_char(12, '9v9');
-- combinations
SELECT to_char(1234.5, 'FM$9,999.00'), to_char(-1234.5, '$9,999.00PR'), to_char(-1234.5, 'S9G999D00');
SELECT to_char(1234.5, 'L9G999D99MI'), to_char(-1234.5, 'SG09999.9'), to_char(0.1, 'FM0.099');
SELECT to_char(485, '999'), to_char(-485, '999'), to_char(485, '9 9 9'), to_char(1485, '9,999');
SELECT to_char(1485, '9G999'), to_char(148.5, '999.999'), to_char(148.5, 'FM999.999'), to_char(148.5, '999D999');
SELECT to_char(3148.5, '9G999D999'), to_char(-485, '999S'), to_char(-485, '999MI'), to_char(485, '999MI');
SELECT to_char(485, 'FM999MI'), to_char(485, 'PL999'), to_char(485, 'SG999'), to_char(-485, 'SG999');
SELECT to_char(-485, '9SG99'), to_char(-485, '999PR'), to_char(485, 'L999'), to_char(482, '999th');
SELECT to_char(485, '"Good number:"999'), to_char(485.8, '"Pre:"999" Post:" .999'), to_char(12, '99V999');
SELECT to_char(12.4, '99V999'), to_char(12.45, '99V9'), to_char(0.0004859, '9.99EEEE');
SELECT to_char(-0.1, '99.99'), to_char(-0.1, 'FM9.99'), to_char(-0.1, 'FM90.99'), to_char(0.1, '0.9');
SELECT to_char(12, '9990999.9'), to_char(12, 'FM9990999.9'), to_char(-12, 'FM9990999.99PR');
SELECT id, to_char(i, 'FMS9,999,999,999') AS i, to_char(n, 'FM9,999,990.00PR') AS n FROM tc ORDER BY id;
SELECT id, to_char(b, 'S9,999,999,999,999,999,999') AS b FROM tc ORDER BY id;
-- int4 and int8 extremes
SELECT to_char(2147483647, '9999999999'), to_char(-2147483648, '9999999999'), to_char(-2147483648, 'FM999999999999.99');
SELECT to_char(9223372036854775807, '9999999999999999999'), to_char(-9223372036854775808, 'FM9999999999999999999');
SELECT to_char(9223372036854775807, '999999999999999999'), to_char('-9223372036854775808'::int8, '0000000000000000000.0');
-- long fractions and large numerics
SELECT to_char(1.23456789012345678901234567890, '9.99999999999999999999999999999');
SELECT to_char(123456789012345678901234567890, '999999999999999999999999999999');
SELECT to_char(123456789012345678901234567890, 'FM999,999,999,999,999,999,999,999,999,999');
SELECT to_char(1e-20, '9.9999999999999999999999'), to_char(1e-20, 'FM9.9999999999999999999999');
-- empty template, empty results
SELECT to_char(12, ''), to_char(12, ' '), to_char(12::int8, ''), to_char(1.5, '') IS NULL;
-- NULL inputs
SELECT to_char(NULL::int4, '999'), to_char(12, NULL), to_char(NULL::int8, NULL), to_char(NULL::numeric, '9');
SELECT to_number(NULL, '999'), to_number('12', NULL), to_char(n, NULL) FROM tc WHERE id = 1;
-- template errors (42601)
SELECT to_char(12, '99.99.9');
SELECT to_char(12, '99D9.9');
SELECT to_char(12, 'S99S');
SELECT to_char(12, 'S99PL');
SELECT to_char(12, 'MI99S');
SELECT to_char(12, 'S99MI');
SELECT to_char(12, 'S99SG');
SELECT to_char(12, 'PL99PR');
SELECT to_char(12, 'S99PR');
SELECT to_char(12, 'PR99');
SELECT to_char(12, '9PR0');
SELECT to_char(12, '99V9.9');
SELECT to_char(12, '99.9V9');
SELECT to_char(12, '9.9EEEEEEEE');
SELECT to_char(12, '9.9EEEE9');
SELECT to_char(12, 'FM9.9EEEE');
SELECT to_char(12, 'S9.9EEEE');
SELECT to_char(12, '9.9PREEEE');
SELECT to_char(12, 'RN9.9EEEE');
SELECT to_char(12, '99V9EEEE');
SELECT to_char(12, 'B9.9EEEE');
SELECT to_char(12, '9.9EEEE"x"MI');
SELECT to_char(12.5, 'MI9.9EEEE');
-- value errors
SELECT to_char(5000000000::int8, 'RN');
SELECT to_char(12345678901::numeric, 'RN');
SELECT to_char('NaN'::numeric, 'RN');
SELECT to_char('Infinity'::numeric, 'RN');
SELECT to_char(9223372036854775807, '9V9');
SELECT to_char(12::int8, '9V9999999999999999999');
SELECT to_char('NaN'::numeric, '9999TH');
SELECT to_char('Infinity'::numeric, '9999999999th');
-- to_number
SELECT to_number('12', '99'), to_number('-12', '99'), to_number('12.34', '99.99'), to_number('-12.34', '99.99');
SELECT to_number('1,234.5', '9,999.9'), to_number('1,234.5', '9G999D9'), to_number('1234.5', '9,999.9');
SELECT to_number('<12>', '99PR'), to_number('12-', '99MI'), to_number('12+', '99PL'), to_number('-12', 'SG99');
SELECT to_number('12-', '99S'), to_number('-12', 'S99'), to_number('+12', 'S99'), to_number('12.5-', 'FM99.9S');
SELECT to_number('$12.34', 'L99.99'), to_number('$12.34', '"$"99.99'), to_number('USD 12', '"USD"99');
SELECT to_number('12th', '99th'), to_number('1st', '9TH'), to_number('12', '9999'), to_number('  12', '9999');
SELECT to_number('1234', '99V99'), to_number('12', '9V9'), to_number('-5', 'S9V99'), to_number('123', '999V');
SELECT to_number('12.3456', '99.99'), to_number('12.3456', '99.9999'), to_number('.5', '.9'), to_number('5.', '9.');
SELECT to_number('12', 'FM99'), to_number('1,234', 'FM9,999'), to_number('0.001', '9.999'), to_number('-0.05', 'S9.99');
SELECT to_number('1 2', '9 9'), to_number('12', '0000'), to_number('  -  12', '99999'), to_number('12 34', '99G99');
SELECT to_number('abc12', '99999'), to_number('12abc', '99999'), to_number('1-2', '999'), to_number('12', '9');
SELECT to_number('1.2.3', '99999'), to_number('1e5', '9999');
SELECT to_number('-34,338,492', '99G999G999'), to_number('-34,338,492.654,878', '99G999G999D999G999');
SELECT to_number('<564646.654564>', '999999.999999PR'), to_number('0.00001-', '9.999999S');
SELECT to_number('5.01-', 'FM9.999999S'), to_number('5.01-', 'FM9.999999MI'), to_number('5 4 4 4 4 8 . 7 8', '9 9 9 9 9 9 . 9 9');
SELECT to_number('.01', 'FM9.99'), to_number('.0', '99999999.99999999'), to_number('0', '99.99');
SELECT to_number('.-01', 'S99.99'), to_number('.01-', '99.99S'), to_number(' . 0 1-', ' 9 9 . 9 9 S');
SELECT to_number('34,50','999,99'), to_number('123,000','999G'), to_number('123456','999G999');
SELECT to_number('$1234.56','L9,999.99'), to_number('$1234.56','L99,999.99'), to_number('$1,234.56','L99,999.99');
SELECT to_number('1234.56','L99,999.99'), to_number('1,234.56','L99,999.99'), to_number('42nd', '99th');
SELECT to_number('12€', '99"€"'), to_number('€12', 'L99'), to_number('12', '"x"99');
-- to_number errors
SELECT to_number('', '999');
SELECT to_number('abc', '999');
SELECT to_number('-', '9');
SELECT to_number('1234567', '999');
SELECT to_number('123.45', '99.99');
SELECT to_number('1.5e3', '9.9EEEE');
SELECT to_number('XII', 'RN');
SELECT to_number('12', '9.9.9');
SELECT to_number('12', 'S99MI');
SELECT to_number('12', '');
-- through a table and expressions
SELECT id, to_number(to_char(n, 'FMS99999.9999'), 'S99999.9999') AS roundtrip FROM tc ORDER BY id;
SELECT id, to_char(i, '"#"FM0000') || ':' || to_char(n * 2, 'FM9990.0') AS label FROM tc ORDER BY id;
SELECT to_char(sum(n), 'FM999,999.000'), to_char(count(*), '99th') FROM tc;
SELECT to_char(g, 'FMRN') FROM generate_series(1, 12) AS g ORDER BY g;
DROP TABLE tc;
