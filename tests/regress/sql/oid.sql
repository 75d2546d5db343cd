--
-- oid: unsigned 32-bit input (PostgreSQL's strtoul rules: leading
-- whitespace and sign, wrap-around of negatives that fit in int4),
-- output, comparisons, min/max, casts with the integer types, errors.
--

SELECT '0'::oid AS zero, '4294967295'::oid AS max, ' 12'::oid AS lead_space, '12 '::oid AS trail_space;
SELECT '-1'::oid AS minus_one, '-2147483648'::oid AS int4_min, '+7'::oid AS plus, '007'::oid AS zeros;
SELECT '4294967296'::oid;
SELECT '-2147483649'::oid;
SELECT '99999999999999999999'::oid;
SELECT ''::oid;
SELECT ' '::oid;
SELECT '1x'::oid;
SELECT '1 2'::oid;
SELECT '0x10'::oid;
SELECT '1.5'::oid;

-- comparisons are unsigned
SELECT '4294967295'::oid > '1'::oid AS unsigned, '2147483648'::oid > '2147483647'::oid AS above_int4,
       '5'::oid = '5'::oid AS eq, '5'::oid <> '6'::oid AS ne, '5'::oid <= '5'::oid AS le, '6'::oid >= '7'::oid AS ge,
       '1'::oid < '2'::oid AS lt;
SELECT 5::oid = 5 AS int_literal, NULL::oid = 1 AS null_eq;
SELECT 1::oid + 1;
SELECT -'1'::oid;

CREATE TABLE oids (id int, o oid);
INSERT INTO oids VALUES (1, 4294967295), (2, 0), (3, 2147483648), (4, NULL), (5, 17), (6, 17);
SELECT id, o FROM oids ORDER BY o, id;
SELECT o, count(*) FROM oids GROUP BY o ORDER BY o;
SELECT min(o), max(o), count(o) FROM oids;
SELECT a.id, b.id FROM oids a JOIN oids b ON a.o = b.o AND a.id < b.id ORDER BY 1, 2;
SELECT id FROM oids WHERE o > 2147483647 ORDER BY id;
INSERT INTO oids VALUES (7, -1);
INSERT INTO oids VALUES (8, 4294967296);
INSERT INTO oids VALUES (9, '4294967296');
SELECT id, o FROM oids WHERE id >= 7 ORDER BY id;

-- casts: int2/int4/int8 to oid implicit, oid to int8 by assignment, to int4 by relabelling
SELECT 42::int2::oid AS from_int2, 42::int4::oid AS from_int4, 4294967295::int8::oid AS from_int8;
SELECT (-1)::int4::oid AS int4_wraps, '4294967295'::oid::int4 AS to_int4, '4294967295'::oid::int8 AS to_int8;
SELECT (-1)::int8::oid;
SELECT 4294967296::int8::oid;
SELECT oid(4294967295::int8) AS by_name, int8('4000000000'::oid) AS int8_by_name;
SELECT '123'::oid::text AS to_text, '123'::text::oid AS from_text, '77'::varchar::oid AS from_varchar;
SELECT 'abc'::text::oid;
SELECT '1'::oid::numeric;
CREATE TABLE oid_targets (i4 int4, i8 int8, t text);
INSERT INTO oid_targets SELECT o, o, o FROM oids WHERE id = 1;
SELECT * FROM oid_targets;
