--
-- Integer arithmetic: int2, int4, int8 and their mixtures; truncating
-- division and modulo; overflow (22003) and division by zero (22012);
-- bitwise operators; abs, gcd, lcm, mod
--
SELECT 1 + 2, 7 - 10, 6 * 7, 7 / 2, -7 / 2, 7 / -2, 7 % 3, -7 % 3, 7 % -3;
SELECT 2::int2 + 3::int2, 2::int2 * 3::int4, 2::int2 - 3::int8, 10::int8 / 4::int2;
SELECT 32767::int2 + 1;
SELECT 32767::int2 + 1::int2;
SELECT (-32768)::int2 - 1::int2;
SELECT 100::int2 * 1000::int2;
SELECT 2147483647 + 0, -2147483647 - 1;
SELECT 2147483647 + 1;
SELECT -2147483647 - 2;
SELECT 2147483647 * 2;
SELECT 65536 * 65536;
SELECT 65536::int8 * 65536;
SELECT 2147483648, -2147483648, 9223372036854775807, 9223372036854775808;
SELECT 9223372036854775807 + 1;
SELECT (-9223372036854775807 - 1) - 1;
SELECT 4611686018427387904 * 2;
SELECT 3037000500 * 3037000500;
SELECT -(-2147483647), -(-2147483648);
SELECT -(-2147483648)::int4;
SELECT -((-2147483648)::int4);
SELECT -((-32768)::int2);
SELECT (-2147483648)::int4 / -1;
SELECT (-2147483648)::int4 % -1;
SELECT (-9223372036854775808)::int8 / -1;
SELECT (-9223372036854775808)::int8 % -1, (-32768)::int2 % (-1)::int2;
SELECT (-32768)::int2 / (-1)::int2;
-- division by zero
SELECT 1 / 0;
SELECT 1 % 0;
SELECT 1::int8 / 0::int8;
SELECT 1::int2 / 0::int2;
SELECT 5::int2 % 0::int2;
SELECT 0 / 0;
SELECT 10 / (5 - 5);
SELECT mod(7, 0);
-- functions
SELECT abs(-5), abs(5), abs(-5::int8), abs((-3)::int2);
SELECT abs((-2147483648)::int4);
SELECT mod(7, 3), mod(-7, 3), mod(7::int8, -3), mod(9::int2, 4::int2);
SELECT gcd(12, 18), gcd(-12, 18), gcd(0, 5), gcd(0, 0), lcm(4, 6), lcm(0, 3), lcm(-4, 6);
SELECT gcd(12::int8, 18::int8), lcm(4::int8, 6::int8);
SELECT gcd((-2147483648)::int4, 0);
SELECT lcm(2147483647, 2147483646);
-- bitwise
SELECT 12 & 10, 12 | 10, 12 # 10, ~12, 1 << 10, 1024 >> 3, -16 >> 2;
SELECT 12::int2 & 10::int2, 5::int8 | 2::int8, ~0::int8, 1::int8 << 62;
SELECT 1 << 31, 1 << 32, (1::int8 << 63) IS NOT NULL AS shifted;
-- comparisons across widths
SELECT 1::int2 = 1::int8, 2::int4 < 3::int2, 3::int8 >= 3::int4, 4::int2 <> 5::int8;
SELECT 2147483648 > 2147483647, 9223372036854775807::int8 > 2147483647::int4;
-- integer literals, types and table data
CREATE TABLE ia (a int2, b int4, c int8);
INSERT INTO ia VALUES (1, 100, 10000000000), (-2, -200, -20000000000), (32767, 2147483647, 9223372036854775807),
    (NULL, 0, 0);
SELECT a, b, c, a + 1 AS a1, b * 2::int8 AS b2, c / 2 AS c2 FROM ia ORDER BY b;
SELECT a + b FROM ia ORDER BY b;
SELECT a * 2 FROM ia ORDER BY b;
SELECT b + 1 FROM ia ORDER BY b;
SELECT c + 1 FROM ia ORDER BY b;
SELECT sum(a), sum(b), sum(c) FROM ia WHERE a < 10;
SELECT sum(c) FROM ia;
SELECT sum(b)::int4 FROM ia;
SELECT max(a), min(b), max(c) FROM ia;
UPDATE ia SET a = a + 1 WHERE a > 30000;
SELECT a FROM ia ORDER BY a;
DROP TABLE ia;
