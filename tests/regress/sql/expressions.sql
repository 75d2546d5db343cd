--
-- Expressions: CASE, COALESCE, NULLIF, GREATEST/LEAST, IN lists, BETWEEN,
-- LIKE/ILIKE, IS [NOT] DISTINCT FROM, precedence
--
CREATE TABLE ex (id int, n int, s text);
INSERT INTO ex VALUES (1, 10, 'apple'), (2, 20, 'Banana'), (3, NULL, 'cherry'),
    (4, 40, NULL), (5, -5, 'a_b%c'), (6, 0, '');
-- CASE
SELECT id, CASE WHEN n > 15 THEN 'big' WHEN n > 0 THEN 'small' ELSE 'other' END
    FROM ex ORDER BY id;
SELECT id, CASE WHEN n > 15 THEN 'big' END AS c FROM ex ORDER BY id;
SELECT id, CASE n WHEN 10 THEN 'ten' WHEN 20 THEN 'twenty' ELSE 'else' END FROM ex ORDER BY id;
SELECT id, CASE n WHEN NULL THEN 'null?' ELSE 'not matched' END FROM ex WHERE id = 3;
SELECT id, CASE WHEN n IS NULL THEN -1 ELSE n * 2 END AS v FROM ex ORDER BY id;
SELECT CASE WHEN true THEN 1 ELSE 2.5 END, CASE WHEN false THEN 1 ELSE 2.5 END;
SELECT CASE 1 WHEN 1 THEN 'one' WHEN 1 THEN 'again' END;
SELECT CASE WHEN 1 = 0 THEN 1 / 0 ELSE 0 END;
SELECT CASE WHEN NULL THEN 'yes' ELSE 'no' END;
SELECT id, CASE WHEN s LIKE 'a%' THEN upper(s) WHEN s IS NULL THEN '(null)' ELSE s END
    FROM ex ORDER BY id;
SELECT CASE WHEN true THEN 1 ELSE 'a' END;
SELECT CASE WHEN true THEN 1 ELSE true END;
SELECT CASE WHEN 1 THEN 1 END;
-- COALESCE, NULLIF
SELECT id, coalesce(n, 0), coalesce(s, 'none'), coalesce(NULL, n, 99) FROM ex ORDER BY id;
SELECT coalesce(NULL, NULL, 'third'), coalesce(1, NULL), coalesce(NULL::int, 2.5);
SELECT coalesce(NULL, NULL);
SELECT coalesce(1, 1 / 0);
SELECT coalesce(1, 'x');
SELECT id, nullif(n, 10), nullif(s, '') FROM ex ORDER BY id;
SELECT nullif(1, 1), nullif(1, 2), nullif(NULL, 1), nullif('a', 'b');
SELECT nullif(1, 'x');
-- GREATEST, LEAST
SELECT greatest(1, 2, 3), least(1, 2, 3), greatest(1, NULL, 3), least(NULL, NULL, 2);
SELECT greatest('abc', 'abd', 'ab'), least('abc', 'ABC'), greatest(1, 2.5), least(1::int8, 2::int2);
SELECT greatest(NULL::int, NULL);
SELECT id, greatest(n, 15), least(n, 15) FROM ex ORDER BY id;
SELECT greatest(1, 'x');
-- IN lists
SELECT id FROM ex WHERE n IN (10, 40, 99) ORDER BY id;
SELECT id FROM ex WHERE n NOT IN (10, 40) ORDER BY id;
SELECT id FROM ex WHERE s IN ('apple', 'cherry') ORDER BY id;
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), 1 NOT IN (1, NULL);
SELECT NULL IN (1, 2), NULL::int NOT IN (1);
SELECT 1 IN (1.0, 2), 'a' IN ('a', 'b'), 3 IN (1 + 2);
SELECT id, n IN (10, 20) AS in_list FROM ex ORDER BY id;
SELECT 1 IN ('x', 'y');
-- BETWEEN
SELECT id FROM ex WHERE n BETWEEN 0 AND 20 ORDER BY id;
SELECT id FROM ex WHERE n NOT BETWEEN 0 AND 20 ORDER BY id;
SELECT id FROM ex WHERE n BETWEEN 20 AND 0;
SELECT id FROM ex WHERE n BETWEEN SYMMETRIC 20 AND 0 ORDER BY id;
SELECT id FROM ex WHERE s BETWEEN 'b' AND 'd' ORDER BY id;
SELECT 5 BETWEEN 1 AND 10, 5 BETWEEN NULL AND 10, 15 BETWEEN NULL AND 10, NULL BETWEEN 1 AND 2;
-- LIKE and ILIKE
SELECT id FROM ex WHERE s LIKE 'a%' ORDER BY id;
SELECT id FROM ex WHERE s LIKE '%an%' ORDER BY id;
SELECT id FROM ex WHERE s LIKE '_pple';
SELECT id FROM ex WHERE s ILIKE 'b%' ORDER BY id;
SELECT id FROM ex WHERE s NOT LIKE '%a%' ORDER BY id;
SELECT id FROM ex WHERE s NOT ILIKE '%A%' ORDER BY id;
SELECT id FROM ex WHERE s LIKE 'a\_b%';
SELECT id FROM ex WHERE s LIKE 'a#_b#%c' ESCAPE '#';
SELECT id FROM ex WHERE s LIKE '' ORDER BY id;
SELECT id FROM ex WHERE s LIKE '%' ORDER BY id;
SELECT 'abc' LIKE 'abc', 'abc' LIKE 'ab', 'abc' LIKE '%c', 'ABC' ILIKE 'a_c', NULL LIKE 'a';
SELECT 'ab' ~~ 'a%', 'ab' !~~ 'a%', 'AB' ~~* 'a%', 'AB' !~~* 'a%';
SELECT 'a%' LIKE 'a\%', 'ab' LIKE 'a\%', 'a\b' LIKE 'a\\b';
SELECT 'abc' LIKE 'a\';
-- IS [NOT] DISTINCT FROM
SELECT 1 IS DISTINCT FROM 1, 1 IS DISTINCT FROM 2, 1 IS DISTINCT FROM NULL, NULL IS DISTINCT FROM NULL;
SELECT 1 IS NOT DISTINCT FROM 1, 1 IS NOT DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL;
SELECT a.id, b.id, a.n FROM ex a, ex b WHERE a.n IS NOT DISTINCT FROM b.n ORDER BY a.id;
SELECT id FROM ex WHERE n IS DISTINCT FROM 10 ORDER BY id;
SELECT id FROM ex WHERE s IS NOT DISTINCT FROM NULL;
-- precedence and grouping
SELECT 2 + 3 * 4 - 1, -2 * -3, 10 - 2 - 3, 100 / 10 / 5;
SELECT true OR false AND false, (true OR false) AND false, NOT false AND false;
SELECT (1 < 2) = true, 'a' || 'b' || 'c', 1 + 2 || 'x';
SELECT 1 < 2 = true;
SELECT - n FROM ex WHERE id = 1;
SELECT @ -5, @ 5, ~ 0, 1 << 4;
-- boolean and comparison errors
SELECT 1 AND true;
SELECT 'abc' + 1;
SELECT true > 1;
DROP TABLE ex;
