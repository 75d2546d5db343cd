-- Error fields longer than 1 kB are reported whole, as PostgreSQL does.
-- A unique violation on a ~5000-byte key (compressible: the index stores
-- it compressed) prints the whole key in its DETAIL.
CREATE TABLE long_keys (t text UNIQUE);
INSERT INTO long_keys VALUES (repeat('abcdefghij', 500));
INSERT INTO long_keys VALUES (repeat('abcdefghij', 500));
SELECT length(t) FROM long_keys;
-- the failed insert left nothing
SELECT count(*) FROM long_keys;
-- a message longer than 1 kB: a bad integer literal of 3000 characters
SELECT repeat('z', 3000)::int;
-- a 6000-byte DETAIL inside a transaction, and the session goes on
BEGIN;
INSERT INTO long_keys VALUES (repeat('klmnopqrst', 600) || 'end');
INSERT INTO long_keys VALUES (repeat('klmnopqrst', 600) || 'end');
ROLLBACK;
SELECT count(*) FROM long_keys;
DROP TABLE long_keys;
