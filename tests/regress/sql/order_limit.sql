--
-- ORDER BY (ASC/DESC, NULLS FIRST/LAST, position, alias, expressions,
-- columns not selected, several keys), LIMIT and OFFSET
--
CREATE TABLE ol (id int, a int, b text, c numeric);
INSERT INTO ol VALUES (1, 3, 'c', 1.5), (2, 1, 'a', NULL), (3, NULL, 'b', 2.5), (4, 2, NULL, -1),
    (5, 1, 'B', 0), (6, NULL, 'a', 10), (7, 3, 'C', 1.50), (8, 2, 'aa', 3);
SELECT id, a FROM ol ORDER BY a, id;
SELECT id, a FROM ol ORDER BY a ASC, id DESC;
SELECT id, a FROM ol ORDER BY a DESC, id;
SELECT id, a FROM ol ORDER BY a NULLS FIRST, id;
SELECT id, a FROM ol ORDER BY a DESC NULLS LAST, id;
SELECT id, a FROM ol ORDER BY a ASC NULLS LAST, id DESC;
SELECT id, b FROM ol ORDER BY b, id;
SELECT id, b FROM ol ORDER BY b DESC, id;
SELECT id, c FROM ol ORDER BY c, id;
SELECT id, c FROM ol ORDER BY c DESC NULLS LAST, id;
-- by position and by alias
SELECT a, id FROM ol ORDER BY 1, 2;
SELECT a, id FROM ol ORDER BY 2 DESC;
SELECT id AS ident, a AS val FROM ol ORDER BY val, ident;
SELECT id, a * 10 AS tens FROM ol ORDER BY tens NULLS FIRST, id;
-- by expressions and columns not in the target list
SELECT id FROM ol ORDER BY c * -1, id;
SELECT id FROM ol ORDER BY a, b;
SELECT id, b FROM ol ORDER BY upper(b), id;
SELECT id, b FROM ol ORDER BY length(b) DESC NULLS LAST, b, id;
SELECT id FROM ol ORDER BY a IS NULL, a DESC, id;
SELECT id FROM ol ORDER BY CASE WHEN b LIKE 'a%' THEN 0 ELSE 1 END, id;
SELECT id, a + id AS s FROM ol ORDER BY a + id, id;
-- ties: every ORDER BY below still orders all the rows it returns
SELECT b, count(*) FROM ol GROUP BY b ORDER BY count(*) DESC, b NULLS FIRST;
SELECT DISTINCT a FROM ol ORDER BY a DESC;
-- LIMIT and OFFSET
SELECT id FROM ol ORDER BY id LIMIT 3;
SELECT id FROM ol ORDER BY id LIMIT 3 OFFSET 2;
SELECT id FROM ol ORDER BY id OFFSET 6;
SELECT id FROM ol ORDER BY id OFFSET 100;
SELECT id FROM ol ORDER BY id LIMIT 0;
SELECT id FROM ol ORDER BY id LIMIT ALL;
SELECT id FROM ol ORDER BY id LIMIT NULL;
SELECT id FROM ol ORDER BY id LIMIT 2 OFFSET 0;
SELECT id FROM ol ORDER BY id OFFSET 2 LIMIT 2;
SELECT id FROM ol ORDER BY id FETCH FIRST 2 ROWS ONLY;
SELECT id FROM ol ORDER BY id OFFSET 1 ROW FETCH NEXT 1 ROW ONLY;
SELECT id FROM ol ORDER BY id LIMIT 1 + 1;
SELECT id FROM ol ORDER BY id LIMIT (SELECT count(*) FROM ol WHERE a = 1);
SELECT id FROM ol ORDER BY a DESC NULLS LAST, id LIMIT 3;
SELECT count(*) FROM (SELECT id FROM ol LIMIT 5) s;
SELECT count(*) FROM (SELECT id FROM ol OFFSET 5) s;
SELECT 1 LIMIT 0;
SELECT 1 OFFSET 1;
SELECT id FROM ol ORDER BY id LIMIT 2::int8;
SELECT id FROM ol ORDER BY id LIMIT '2';
-- errors
SELECT id FROM ol ORDER BY id LIMIT -1;
SELECT id FROM ol ORDER BY id OFFSET -1;
SELECT id FROM ol LIMIT 'x';
SELECT id FROM ol ORDER BY 3;
SELECT id FROM ol ORDER BY 0;
SELECT id FROM ol ORDER BY nosuch;
SELECT id FROM ol LIMIT id;
SELECT DISTINCT a FROM ol ORDER BY b;
DROP TABLE ol;
