--
-- numeric: exact arithmetic and result scales, typmods, rounding,
-- functions, NaN, errors
--
SELECT 0.1 + 0.2, 1.10 + 2.205, 10.5 - 0.25, 1.5 * 1.5, 2.50 * 4;
SELECT 1 / 3::numeric, 2::numeric / 3, 10.0 / 4, 1.000 / 7, 100 / 0.3;
SELECT 1234567890.123456789 * 1000000000, 0.000000001 * 0.000000001;
SELECT 99999999999999999999999999999999 + 1, -0.0001 - 0.0001;
SELECT 7.5 % 2, -7.5 % 2, 7 % 2.5, mod(10.5, 3), div(10.5, 3), div(-7, 2::numeric);
SELECT 1.5 = 1.50, 1.5 < 1.51, 2 > 1.999, 0.0 = -0.0, 1.0 <> 1;
SELECT 1 + 1.5, 2::int2 * 1.5, 3::int8 - 0.5, 10 / 4.0;
SELECT -(1.5), +(2.5), abs(-1.25), abs(1.25);
-- division by zero and overflow
SELECT 1.5 / 0;
SELECT 1 / 0.0;
SELECT 1.5 % 0;
SELECT mod(1.5, 0.0);
SELECT 10::numeric ^ 2 IS NOT NULL;
-- typmods
CREATE TABLE nt (a numeric(5,2), b numeric(10), c numeric);
INSERT INTO nt VALUES (1.234, 1.5, 1.23456789), (-999.994, 12345.5, 0), (0.005, -0.5, -100);
SELECT * FROM nt ORDER BY a;
INSERT INTO nt (a) VALUES (999.995);
INSERT INTO nt (b) VALUES (12345678901);
SELECT a + b, a * c, c / 3 FROM nt ORDER BY a;
SELECT a::numeric(4,1), b::numeric(3,0) FROM nt WHERE a > 0 ORDER BY a;
-- rounding and friends
SELECT round(2.5), round(-2.5), round(2.4999), round(1.2345, 2), round(1.2355, 3), round(1234.5, -2);
SELECT round(-0.5), round(0.05, 1), round(12345, -5), round(55555, -5);
SELECT trunc(2.9), trunc(-2.9), trunc(1.2399, 2), trunc(1999, -3);
SELECT ceil(2.1), ceil(-2.1), ceiling(2.0), floor(2.9), floor(-2.1), floor(-2.0);
SELECT sign(-3.3), sign(0.0), sign(7::numeric), scale(1.230), scale(5), min_scale(1.2300), trim_scale(1.2300);
-- exact math functions
SELECT sqrt(16::numeric), sqrt(2::numeric), sqrt(2.00000000000000000000), sqrt(0.0001);
SELECT sqrt(-1.0);
SELECT exp(0.0), exp(1.0), ln(1.0), ln(10.0), log(100.0), log(2.0, 8.0), log10(1000.0);
SELECT ln(0.0);
SELECT ln(-1.0);
SELECT power(2.0, 10), power(2, 0.5), power(10.0, -2), pow(1.5, 2), power(0.0, 0);
SELECT power(0.0, -1);
SELECT power(-8.0, 1.0 / 3);
-- NaN sorts after everything and equals itself
SELECT 'NaN'::numeric + 1, 'NaN'::numeric * 0, 'NaN'::numeric = 'NaN'::numeric, 'NaN'::numeric > 1e100;
SELECT 'NaN'::numeric / 0;
CREATE TABLE nnan (v numeric);
INSERT INTO nnan VALUES (1), ('NaN'), (-1), (NULL), (1000000), (0.001);
SELECT v FROM nnan ORDER BY v;
SELECT v FROM nnan ORDER BY v DESC NULLS LAST;
SELECT max(v), min(v), count(v) FROM nnan;
SELECT sum(v), avg(v) FROM nnan WHERE v <> 'NaN';
SELECT sum(v) FROM nnan;
SELECT 'NaN'::numeric::int;
SELECT 'Infinity'::numeric, '-Infinity'::numeric, 'Infinity'::numeric + 1;
SELECT 'Infinity'::numeric::int4;
SELECT 'Infinity'::numeric - 'Infinity'::numeric;
SELECT 1 / 'Infinity'::numeric;
-- large values
SELECT 12345678901234567890123456789.123456789 * 98765432109876543210;
SELECT 2::numeric ^ 200 IS NOT NULL;
SELECT power(2::numeric, 200);
SELECT '1e131072'::numeric;
SELECT round(1.5e-20, 25), 1.5e-20::numeric(30,25);
DROP TABLE nt, nnan;
