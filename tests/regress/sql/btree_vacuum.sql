-- B-tree page deletion and reuse: VACUUM deletes the index pages it
-- empties, a later VACUUM (once no transaction can still be on them)
-- records them free, and as many new keys, in another key range, go
-- into them instead of growing the file.
CREATE TABLE btdel (k int, v text);
CREATE INDEX btdel_k ON btdel (k);
CREATE INDEX btdel_v ON btdel (v);
INSERT INTO btdel SELECT g, 'value ' || g FROM generate_series(1, 50000) g;
CREATE TABLE btdel_size (k_size bigint, v_size bigint);
INSERT INTO btdel_size
  SELECT pg_relation_size('btdel_k'), pg_relation_size('btdel_v');
DELETE FROM btdel WHERE k > 1000;
VACUUM btdel;
-- the pages are deleted, not yet free: the file keeps its size
SELECT pg_relation_size('btdel_k') = k_size AS same_size FROM btdel_size;
SELECT count(*), min(k), max(k) FROM btdel;
SELECT k, v FROM btdel WHERE k > 995 ORDER BY k;
-- another transaction ends, and another VACUUM finds the pages reusable
DELETE FROM btdel WHERE k = 1000;
VACUUM btdel;
INSERT INTO btdel SELECT g, 'value ' || g FROM generate_series(51000, 100000) g;
SELECT pg_relation_size('btdel_k') <= k_size AS k_not_grown,
       pg_relation_size('btdel_v') <= v_size AS v_not_grown
  FROM btdel_size;
SELECT count(*), count(DISTINCT k), min(k), max(k) FROM btdel;
-- the unique index built over the reused pages is sound
CREATE UNIQUE INDEX btdel_k_u ON btdel (k);
INSERT INTO btdel VALUES (20000, 'dup');
DELETE FROM btdel WHERE k % 2 = 0;
VACUUM btdel;
SELECT count(*) FROM btdel;
INSERT INTO btdel SELECT g, 'again ' || g FROM generate_series(100002, 150000, 2) g;
SELECT count(*), sum(k) FROM btdel;
INSERT INTO btdel VALUES (4, 'dup');
DROP TABLE btdel;
DROP TABLE btdel_size;
