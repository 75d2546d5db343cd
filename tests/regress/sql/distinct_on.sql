-- SELECT DISTINCT ON: the first row of each group in ORDER BY order
CREATE TABLE d (g int, v int, n text);
INSERT INTO d VALUES (1, 5, 'a'), (1, 3, 'b'), (2, 7, 'c'), (2, 9, 'd'), (3, 1, 'e'), (NULL, 4, 'f'), (NULL, 2, 'g');
SELECT DISTINCT ON (g) g, v, n FROM d ORDER BY g, v;
SELECT DISTINCT ON (g) g, v, n FROM d ORDER BY g, v DESC;
SELECT DISTINCT ON (g) n FROM d ORDER BY g, n DESC;
SELECT DISTINCT ON (g % 2) g FROM d ORDER BY g % 2, g DESC;
SELECT DISTINCT ON (g, v > 4) g, v FROM d ORDER BY g, v > 4, n;
SELECT DISTINCT ON (1) g, v FROM d ORDER BY 1, 2 DESC;
SELECT DISTINCT ON (g) g, v FROM d ORDER BY g DESC NULLS LAST, v LIMIT 2;
SELECT count(*) FROM (SELECT DISTINCT ON (g) * FROM d ORDER BY g) s;
-- errors
SELECT DISTINCT ON (g) g, v FROM d ORDER BY v;
SELECT DISTINCT ON (nosuch) g FROM d;
DROP TABLE d;
