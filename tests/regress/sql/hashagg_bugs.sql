--
-- GROUP BY statements that tupledb gets wrong (listed in
-- known_failures.txt; hashagg.sql holds everything it gets right).
-- Remove a statement from here, and the file from known_failures.txt,
-- once it passes.
--
CREATE TABLE hg (k int, b bool, x int, t text);
INSERT INTO hg VALUES (1, true, 10, 'a'), (1, NULL, 20, 'b'), (2, false, 30, 'a'), (NULL, true, 40, NULL);
-- a GROUP BY expression with a COLLATE clause is not the column itself:
-- PostgreSQL rejects selecting the bare column (42803), tupledb groups by it
SELECT t, count(*) FROM hg GROUP BY t COLLATE "C" ORDER BY t;
