--
-- extra_float_digits: above 0 float4/float8 print the shortest text that
-- reads back exactly; 0 and below round to 15 (float4: 6) plus that
-- many significant digits.
--
SHOW extra_float_digits;
CREATE TABLE fl (id int, f8 float8, f4 float4);
INSERT INTO fl VALUES (1, 0.1, 0.1), (2, 1.0/3, 1.0/3), (3, 1e100, 1e30),
  (4, -2.5e-300, -2.5e-30), (5, 123456789012345678, 123456789),
  (6, 0, 0), (7, '-0', '-0'), (8, 'NaN', 'NaN'), (9, 'Infinity', '-Infinity'),
  (10, 1e15, 1e6), (11, 1e16, 1e7), (12, 0.0001, 0.0001), (13, 0.00001, 0.00001),
  (14, 2.2250738585072014e-308, 1.17549435e-38), (15, 1.7976931348623157e308, 3.4028235e38);
SELECT id, f8, f4 FROM fl ORDER BY id;
SET extra_float_digits = 3;
SELECT id, f8, f4 FROM fl ORDER BY id;
SET extra_float_digits = 0;
SELECT id, f8, f4 FROM fl ORDER BY id;
SET extra_float_digits = -1;
SELECT id, f8, f4 FROM fl ORDER BY id;
SET extra_float_digits = -5;
SELECT id, f8, f4 FROM fl ORDER BY id;
SET extra_float_digits = -15;
SELECT id, f8, f4 FROM fl ORDER BY id;
-- text casts and expressions print the same way
SET extra_float_digits = 0;
SELECT (0.1::float8 + 0.2)::text, 0.1::float8 + 0.2, pi(), sqrt(2::float8);
SET extra_float_digits = 1;
SELECT (0.1::float8 + 0.2)::text, 0.1::float8 + 0.2, pi(), sqrt(2::float8);
-- range and syntax errors
SET extra_float_digits = 4;
SET extra_float_digits = -16;
SET extra_float_digits = 'lots';
SET extra_float_digits = '1.5';
SHOW extra_float_digits;
-- transactions
RESET extra_float_digits;
BEGIN;
SET LOCAL extra_float_digits = -3;
SELECT 1.0::float8 / 3;
COMMIT;
SELECT 1.0::float8 / 3;
DROP TABLE fl;
