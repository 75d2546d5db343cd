-- The visibility map as clients see it: pg_class.relallvisible, which
-- VACUUM sets to the number of all-visible pages (int4 rows: 226 a page,
-- so 2260 rows fill 10 pages).
CREATE TABLE vm_t (a int4);
SELECT relpages > 0 AS has_pages, relallvisible FROM pg_class WHERE relname = 'vm_t';
INSERT INTO vm_t SELECT generate_series(1, 2260);
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
VACUUM vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
-- all of the third page and some of the sixth: still all-visible after
-- VACUUM (the emptied page too)
DELETE FROM vm_t WHERE a BETWEEN 453 AND 678;
DELETE FROM vm_t WHERE a BETWEEN 1131 AND 1356 AND a % 10 = 0;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
VACUUM vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
-- a change clears a page's bit, but relallvisible is VACUUM's count
UPDATE vm_t SET a = -a WHERE a IN (1, 2000);
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
VACUUM vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
SELECT count(*), sum(a) FROM vm_t;
-- a row of a transaction that rolled back is gone after VACUUM
BEGIN;
INSERT INTO vm_t VALUES (99999);
ROLLBACK;
VACUUM vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
TRUNCATE vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
VACUUM vm_t;
SELECT relallvisible FROM pg_class WHERE relname = 'vm_t';
DROP TABLE vm_t;
