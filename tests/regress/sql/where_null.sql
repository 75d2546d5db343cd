--
-- WHERE and NULL: three-valued logic, IS [NOT] NULL, IS [NOT] TRUE /
-- FALSE / UNKNOWN, NULL in comparisons
--
CREATE TABLE wn (id int, a int, b text, f bool);
INSERT INTO wn VALUES (1, 1, 'x', true), (2, 2, 'y', false), (3, NULL, 'z', NULL),
    (4, 4, NULL, true), (5, NULL, NULL, false), (6, 6, 'x', NULL);
SELECT id FROM wn WHERE a = 1;
SELECT id FROM wn WHERE a <> 1 ORDER BY id;
SELECT id FROM wn WHERE a > 1 AND b = 'x';
SELECT id FROM wn WHERE a > 4 OR b = 'y' ORDER BY id;
SELECT id FROM wn WHERE NOT (a > 1) ORDER BY id;
SELECT id FROM wn WHERE a IS NULL ORDER BY id;
SELECT id FROM wn WHERE a IS NOT NULL ORDER BY id;
SELECT id FROM wn WHERE b IS NULL AND a IS NULL;
SELECT id FROM wn WHERE a = NULL;
SELECT id FROM wn WHERE a <> NULL;
SELECT id FROM wn WHERE NULL;
SELECT id FROM wn WHERE true ORDER BY id;
SELECT id FROM wn WHERE false;
SELECT id FROM wn WHERE f ORDER BY id;
SELECT id FROM wn WHERE NOT f ORDER BY id;
SELECT id FROM wn WHERE f IS TRUE ORDER BY id;
SELECT id FROM wn WHERE f IS NOT TRUE ORDER BY id;
SELECT id FROM wn WHERE f IS FALSE ORDER BY id;
SELECT id FROM wn WHERE f IS NOT FALSE ORDER BY id;
SELECT id FROM wn WHERE f IS UNKNOWN ORDER BY id;
SELECT id FROM wn WHERE f IS NOT UNKNOWN ORDER BY id;
SELECT id FROM wn WHERE f = true ORDER BY id;
SELECT id FROM wn WHERE f OR a > 5 ORDER BY id;
SELECT id FROM wn WHERE f AND a > 1 ORDER BY id;
SELECT id FROM wn WHERE (a > 1) IS NOT TRUE ORDER BY id;
-- the truth tables
CREATE TABLE tv (v bool);
INSERT INTO tv VALUES (true), (false), (NULL);
SELECT x.v AS x, y.v AS y, x.v AND y.v AS "and", x.v OR y.v AS "or"
    FROM tv x, tv y ORDER BY x.v NULLS LAST, y.v NULLS LAST;
SELECT v, NOT v AS "not", v IS TRUE AS is_true, v IS NOT TRUE AS is_not_true,
    v IS FALSE AS is_false, v IS UNKNOWN AS is_unknown, v IS NULL AS is_null
    FROM tv ORDER BY v NULLS LAST;
-- NULL in expressions
SELECT NULL = NULL, NULL <> 1, NULL + 1, 1 + NULL, NULL || 'x', NULL IS NULL;
SELECT NULL AND false, NULL AND true, NULL OR true, NULL OR false, NOT NULL;
SELECT NULL::int IS NULL, NULL::text IS NOT NULL, 1 IS NULL, '' IS NULL;
SELECT id, a + 1 AS a1, b || '!' AS b1, a = 1 AS is_one FROM wn ORDER BY id;
SELECT id, a IS NULL AS a_null, b IS NOT NULL AS b_set FROM wn ORDER BY id;
-- WHERE on expressions and columns of several types
SELECT id FROM wn WHERE a * 2 = 4;
SELECT id FROM wn WHERE a + 0 >= 4 ORDER BY id;
SELECT id FROM wn WHERE b > 'x' ORDER BY id;
SELECT id FROM wn WHERE length(b) = 1 AND a % 2 = 0 ORDER BY id;
SELECT id FROM wn WHERE id = 1 OR id = 3 OR id = 5 ORDER BY id;
SELECT id FROM wn WHERE (id < 3 OR id > 4) AND NOT (b IS NULL) ORDER BY id;
SELECT count(*) FROM wn WHERE a IS NULL OR b IS NULL;
-- errors in WHERE
SELECT id FROM wn WHERE a;
SELECT id FROM wn WHERE b;
SELECT id FROM wn WHERE 1;
SELECT id FROM wn WHERE nosuch > 0;
SELECT id FROM wn WHERE a = 'x';
SELECT id FROM wn WHERE count(*) > 1;
DROP TABLE wn, tv;
