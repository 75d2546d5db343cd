-- Row comparisons: (a, b) op (c, d), IN lists of rows, (a, b) IN (subquery),
-- IS [NOT] DISTINCT FROM between rows, with NULLs; errors.
SELECT (1, 2) = (1, 2), (1, 2) = (1, 3), (1, 2) <> (1, 3), (1, NULL) = (1, 2), (1, NULL) = (2, 2);
SELECT (1, 2) < (1, 3), (1, 2) < (2, 0), (1, NULL) < (2, 0), (1, NULL) < (1, 5), (NULL, 1) < (2, 2), (2, 1) <= (2, 1), (3, 1, 'b') > (3, 1, 'a'), (1, 2) >= (1, 3);
SELECT (1, 2) = (1, 2, 3);
SELECT ROW(1, 2) = ROW(1, 2), ROW(1) = ROW(1);
SELECT (1, 'a') = (1, 'a'), (1, 2.5) = (1, 2.5);
SELECT (1, 2) IN ((1, 2), (3, 4)), (1, 2) IN ((1, 3), (3, 4)), (1, 2) NOT IN ((1, 3), (3, 4)), (1, NULL) IN ((1, 3), (1, 2));
CREATE TABLE rt (a int, b text);
INSERT INTO rt VALUES (1, 'a'), (2, 'b'), (3, NULL), (NULL, 'd');
SELECT * FROM rt WHERE (a, b) IN (SELECT 1, 'a' UNION ALL SELECT 3, NULL) ORDER BY a;
SELECT * FROM rt WHERE (a, b) IN (SELECT a, b FROM rt WHERE a > 1) ORDER BY a;
SELECT * FROM rt WHERE (a, b) NOT IN (SELECT a, b FROM rt WHERE a = 1) ORDER BY a;
SELECT a, (a, b) IN (SELECT a, b FROM rt r2 WHERE r2.a < 3) OR a IS NULL FROM rt ORDER BY a;
SELECT * FROM rt WHERE (a, b) > (1, 'z') ORDER BY a;
SELECT (a, b) IN (SELECT a FROM rt) FROM rt;
SELECT (a, b) IN (SELECT a, b, a FROM rt) FROM rt;
SELECT (1, 2) < (1, 'x');
SELECT (1, 2) IS DISTINCT FROM (1, 3);
DROP TABLE rt;
SELECT (1, NULL) IS DISTINCT FROM (1, NULL), (1, NULL) IS NOT DISTINCT FROM (1, NULL), (1, 2) IS NOT DISTINCT FROM (1, 3), (NULL, 2) IS DISTINCT FROM (1, 2);
SELECT (1, 2) IS DISTINCT FROM (1, 2, 3);
