--
-- GROUP BY statements that tupledb gets wrong (listed in
-- known_failures.txt; hashagg.sql holds everything it gets right).
-- Remove a statement from here, and the file from known_failures.txt,
-- once it passes.  The crashes come last: nothing after one runs.
--
CREATE TABLE hg (k int, b bool, x int, t text);
INSERT INTO hg VALUES (1, true, 10, 'a'), (1, NULL, 20, 'b'), (2, false, 30, 'a'), (NULL, true, 40, NULL);
-- a GROUP BY expression with a COLLATE clause is not the column itself:
-- PostgreSQL rejects selecting the bare column (42803), tupledb groups by it
SELECT t, count(*) FROM hg GROUP BY t COLLATE "C" ORDER BY t;
-- a grouped CTE referenced twice: tupledb inlines both references (and
-- ignores MATERIALIZED), and the aggregate's projection of the second
-- copy crashes the executor (SIGSEGV in tdb_exec_project, below the
-- inner side's Aggregate) once the table has more than one column
WITH g AS (SELECT b, count(*) AS c, sum(x) AS s FROM hg GROUP BY b)
SELECT g1.b, g1.c, g2.b AS other FROM g g1 JOIN g g2 ON g1.c = g2.c ORDER BY 1, 3;
WITH g AS MATERIALIZED (SELECT max(x) AS m FROM hg) SELECT g1.m, g2.m FROM g g1, g g2;
