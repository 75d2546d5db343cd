-- INSERT ... ON CONFLICT: DO NOTHING, DO UPDATE with EXCLUDED, arbiter
-- inference, RETURNING, the "affect row a second time" rule, errors
CREATE TABLE kv (k int PRIMARY KEY, v text, n int DEFAULT 10);
INSERT INTO kv VALUES (1, 'one', 1), (2, 'two', 2);

-- DO NOTHING, with and without a conflict target
INSERT INTO kv VALUES (1, 'uno') ON CONFLICT DO NOTHING;
INSERT INTO kv VALUES (1, 'uno') ON CONFLICT (k) DO NOTHING;
INSERT INTO kv VALUES (3, 'three') ON CONFLICT (k) DO NOTHING;
INSERT INTO kv VALUES (1, 'uno'), (4, 'four') ON CONFLICT DO NOTHING RETURNING *;
-- duplicates within one statement: the second is skipped
INSERT INTO kv VALUES (5, 'five'), (5, 'cinco') ON CONFLICT (k) DO NOTHING RETURNING k, v;
SELECT * FROM kv ORDER BY k;

-- DO UPDATE with EXCLUDED, the target by its name and by an alias
INSERT INTO kv VALUES (1, 'uno', 5) ON CONFLICT (k)
  DO UPDATE SET v = EXCLUDED.v, n = kv.n + EXCLUDED.n RETURNING *;
INSERT INTO kv AS t VALUES (2, 'dos', 7) ON CONFLICT (k)
  DO UPDATE SET v = t.v || '/' || excluded.v, n = t.n * excluded.n RETURNING t.k, t.v, t.n;
-- inserted rows and updated rows come back; the command tag counts both
INSERT INTO kv VALUES (2, 'II', 1), (6, 'six', 6) ON CONFLICT (k)
  DO UPDATE SET v = excluded.v RETURNING k, v;
-- the WHERE of DO UPDATE: rows it rejects are neither updated nor returned
INSERT INTO kv VALUES (1, 'ONE'), (3, 'THREE') ON CONFLICT (k)
  DO UPDATE SET v = excluded.v WHERE kv.n > 5 RETURNING *;
INSERT INTO kv VALUES (1, 'ONE'), (3, 'THREE') ON CONFLICT (k)
  DO UPDATE SET v = excluded.v WHERE excluded.v = 'THREE' RETURNING *;
SELECT * FROM kv ORDER BY k;

-- multi-column assignment, DEFAULT
INSERT INTO kv VALUES (4, 'x') ON CONFLICT (k) DO UPDATE SET (v, n) = ('four!', 44) RETURNING *;
INSERT INTO kv VALUES (4, 'x') ON CONFLICT (k) DO UPDATE SET (n, v) = ROW(DEFAULT, excluded.v || '?') RETURNING *;
INSERT INTO kv VALUES (4, 'y', 3) ON CONFLICT (k) DO UPDATE SET n = DEFAULT RETURNING *;
INSERT INTO kv VALUES (4, 'z', 8) ON CONFLICT (k)
  DO UPDATE SET (n, v) = (SELECT excluded.n * 2, kv.v || excluded.v) RETURNING *;
INSERT INTO kv VALUES (4) ON CONFLICT (k)
  DO UPDATE SET (n, v) = (SELECT k2.n, k2.v FROM kv k2 WHERE k2.k = -1) RETURNING *;
INSERT INTO kv VALUES (4) ON CONFLICT (k) DO UPDATE SET (n, v) = (SELECT 1);
INSERT INTO kv VALUES (4, 'w') ON CONFLICT (k) DO UPDATE SET (n, v) = ROW(10, excluded.v) RETURNING *;
INSERT INTO kv (k) VALUES (7) ON CONFLICT (k) DO NOTHING RETURNING *;
INSERT INTO kv VALUES (7, DEFAULT, DEFAULT) ON CONFLICT (k) DO UPDATE SET v = 'seven' RETURNING *;
-- the key itself can change
INSERT INTO kv VALUES (7) ON CONFLICT (k) DO UPDATE SET k = 70 RETURNING *;
-- subqueries in SET and WHERE
INSERT INTO kv VALUES (70, 'x') ON CONFLICT (k)
  DO UPDATE SET n = (SELECT max(n) FROM kv) + 1
  WHERE EXISTS (SELECT 1 FROM kv WHERE k = 1) RETURNING *;

-- INSERT ... SELECT and multi-row VALUES
INSERT INTO kv SELECT g, 'gen' || g, g FROM generate_series(5, 9) g
  ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = kv.n + 100;
SELECT * FROM kv ORDER BY k;
-- the command would change a row twice: 21000, and nothing stays
INSERT INTO kv VALUES (1, 'a'), (1, 'b') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
INSERT INTO kv VALUES (100, 'a'), (100, 'b') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
INSERT INTO kv VALUES (2, 'a'), (3, 'b'), (2, 'c') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
INSERT INTO kv SELECT k, v FROM kv ON CONFLICT (k) DO UPDATE SET v = excluded.v || '+' WHERE kv.k < 3;
SELECT * FROM kv ORDER BY k;

-- constraints on the updated row
CREATE TABLE acct (id int PRIMARY KEY, owner text NOT NULL, bal int CHECK (bal >= 0), email text UNIQUE);
INSERT INTO acct VALUES (1, 'ann', 10, 'ann@x'), (2, 'bob', 5, 'bob@x');
INSERT INTO acct VALUES (1, 'ann', -20) ON CONFLICT (id) DO UPDATE SET bal = acct.bal + excluded.bal;
INSERT INTO acct VALUES (1, 'ann', 1) ON CONFLICT (id) DO UPDATE SET owner = NULL;
-- the proposed row is checked before the conflict is looked for
INSERT INTO acct VALUES (1, NULL, 1) ON CONFLICT DO NOTHING;
INSERT INTO acct VALUES (1, 'ann', -1) ON CONFLICT (id) DO NOTHING;
-- another unique index of the updated row
INSERT INTO acct VALUES (1, 'ann', 0) ON CONFLICT (id) DO UPDATE SET email = 'bob@x';
-- a conflict in an index that is not an arbiter is an error
INSERT INTO acct VALUES (3, 'cy', 0, 'ann@x') ON CONFLICT (id) DO NOTHING;
INSERT INTO acct VALUES (3, 'cy', 0, 'ann@x') ON CONFLICT (email) DO UPDATE SET bal = acct.bal + 1 RETURNING *;
INSERT INTO acct VALUES (1, 'zed', 0, 'bob@x') ON CONFLICT DO NOTHING RETURNING *;
-- a failed statement leaves nothing behind, even rows it updated first
INSERT INTO acct VALUES (2, 'bob', 100), (1, 'ann', -100)
  ON CONFLICT (id) DO UPDATE SET bal = acct.bal + excluded.bal;
BEGIN;
INSERT INTO acct VALUES (2, 'bob', 1) ON CONFLICT (id) DO UPDATE SET bal = acct.bal + excluded.bal RETURNING bal;
INSERT INTO acct VALUES (1, 'ann', 1), (1, 'ann', 1) ON CONFLICT (id) DO UPDATE SET bal = 0;
ROLLBACK;
SELECT * FROM acct ORDER BY id;
-- keys with NULLs never conflict
INSERT INTO acct VALUES (4, 'dee', 0, NULL), (5, 'eve', 0, NULL) ON CONFLICT (email) DO NOTHING RETURNING id;

-- arbiter inference
CREATE TABLE inf (a int, b text, c int, d int);
CREATE UNIQUE INDEX inf_ab ON inf (a, b);
CREATE UNIQUE INDEX inf_lower ON inf (lower(b));
CREATE UNIQUE INDEX inf_c_part ON inf (c) WHERE d > 0;
CREATE INDEX inf_d ON inf (d);
INSERT INTO inf VALUES (1, 'x', 1, 1);
INSERT INTO inf VALUES (1, 'x', 2, 2) ON CONFLICT (b, a) DO UPDATE SET c = excluded.c RETURNING *;
INSERT INTO inf VALUES (9, 'X', 3, 3) ON CONFLICT (lower(b)) DO UPDATE SET c = excluded.c RETURNING *;
INSERT INTO inf VALUES (9, 'X', 4, 4) ON CONFLICT ((lower(b))) DO NOTHING;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (c) WHERE d > 0 DO UPDATE SET d = 50 RETURNING *;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (c) WHERE d > 10 DO NOTHING;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (c) WHERE d >= 1 AND a < 5 DO NOTHING;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (c) WHERE 0 < d DO NOTHING;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (c) WHERE d = 7 DO NOTHING;
INSERT INTO inf VALUES (9, 'y', 3, 5) ON CONFLICT (a int4_ops, b) DO NOTHING;
-- a row outside the partial index's predicate does not conflict there
INSERT INTO inf VALUES (8, 'z', 3, -1) ON CONFLICT (c) WHERE d > 0 DO NOTHING RETURNING *;
-- no arbiter
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (a) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (a, b, c) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (d) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (c) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (c) WHERE d > -1 DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (c) WHERE d < 5 DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (upper(b)) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (a int8_ops, b) DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT (a nosuch_ops, b) DO NOTHING;
SELECT * FROM inf ORDER BY a, b;

-- ON CONSTRAINT
INSERT INTO acct VALUES (2, 'bob', 3) ON CONFLICT ON CONSTRAINT acct_pkey DO UPDATE SET bal = excluded.bal RETURNING *;
INSERT INTO acct VALUES (9, 'bob', 3, 'bob@x') ON CONFLICT ON CONSTRAINT acct_email_key DO NOTHING;
INSERT INTO acct VALUES (2, 'bob', 3) ON CONFLICT ON CONSTRAINT acct_bal_check DO NOTHING;
INSERT INTO acct VALUES (2, 'bob', 3) ON CONFLICT ON CONSTRAINT no_such DO NOTHING;
INSERT INTO inf VALUES (1, 'x') ON CONFLICT ON CONSTRAINT inf_ab DO NOTHING;

-- misuse
INSERT INTO kv VALUES (1, 'x') ON CONFLICT DO UPDATE SET v = 'y';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (nosuch) DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (kv) DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k DESC) DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k NULLS LAST) DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) WHERE (SELECT true) DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) WHERE count(*) > 0 DO NOTHING;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) WHERE excluded.k > 0 DO UPDATE SET v = 'y';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET nosuch = 1;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET kv.v = 'y';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET ctid = '(0,1)';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET xmin = 1;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.nosuch;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.ctid;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = v;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'y' WHERE n > 0;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'a', v = 'b';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET (v, n) = (1);
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET (v, n) = ROW('a');
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET n = 'many';
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET n = count(*);
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'y' WHERE excluded.n;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'y' WHERE generate_series(1, 2) > 1;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'y' RETURNING excluded.v;
INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO NOTHING RETURNING excluded.v;
INSERT INTO kv AS t VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = kv.v;
INSERT INTO kv VALUES (excluded.k, 'x');
UPDATE kv SET v = excluded.v;
SELECT excluded.v FROM kv;

-- a table without indexes: DO NOTHING inserts everything
CREATE TABLE plain (a int);
INSERT INTO plain VALUES (1), (1) ON CONFLICT DO NOTHING;
INSERT INTO plain VALUES (1) ON CONFLICT (a) DO NOTHING;
SELECT * FROM plain;

-- NULLS NOT DISTINCT: NULL keys conflict
CREATE TABLE nnd (a int, b text);
CREATE UNIQUE INDEX nnd_a ON nnd (a) NULLS NOT DISTINCT;
INSERT INTO nnd VALUES (NULL, 'first'), (NULL, 'second') ON CONFLICT (a) DO NOTHING;
INSERT INTO nnd VALUES (NULL, 'third') ON CONFLICT (a) DO UPDATE SET b = nnd.b || '+' || excluded.b RETURNING *;

-- toasted values carried over and replaced
CREATE TABLE big (id int PRIMARY KEY, body text, tag text);
INSERT INTO big VALUES (1, repeat('abcdefghij', 1000), 'v1');
INSERT INTO big VALUES (1, NULL, 'v2') ON CONFLICT (id) DO UPDATE SET tag = excluded.tag;
SELECT id, length(body), md5(body), tag FROM big;
INSERT INTO big VALUES (1, repeat('0123456789', 2000), 'v3') ON CONFLICT (id) DO UPDATE SET body = excluded.body, tag = excluded.tag;
SELECT id, length(body), md5(body), tag FROM big;

-- EXPLAIN
EXPLAIN (COSTS OFF) INSERT INTO kv VALUES (1, 'x') ON CONFLICT DO NOTHING;
EXPLAIN (COSTS OFF) INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO NOTHING;
EXPLAIN (COSTS OFF) INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
EXPLAIN (COSTS OFF) INSERT INTO kv AS t VALUES (1, 'x') ON CONFLICT (k)
  DO UPDATE SET v = excluded.v WHERE t.n < 10 AND excluded.v IS NOT NULL;
EXPLAIN (COSTS OFF) INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k)
  DO UPDATE SET v = excluded.v WHERE kv.v <> excluded.v;
EXPLAIN (COSTS OFF) INSERT INTO inf VALUES (1, 'x', 1, 1) ON CONFLICT (a, b) DO NOTHING;
EXPLAIN (COSTS OFF) INSERT INTO inf VALUES (1, 'x', 1, 1) ON CONFLICT (c) WHERE d > 5 DO NOTHING;
EXPLAIN (COSTS OFF) INSERT INTO kv VALUES (1, 'x') ON CONFLICT (k)
  DO UPDATE SET n = (SELECT max(n) FROM kv) WHERE kv.v IN (SELECT v FROM kv);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  INSERT INTO kv VALUES (1, 'x'), (2, 'y'), (200, 'z') ON CONFLICT (k) DO UPDATE SET v = kv.v WHERE kv.k = 1;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  INSERT INTO kv VALUES (1, 'x'), (201, 'y') ON CONFLICT DO NOTHING;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  INSERT INTO kv VALUES (202, 'x') ON CONFLICT (k) DO NOTHING;
SELECT * FROM kv ORDER BY k;

-- UPDATE shares the SET list's rules
UPDATE kv SET (v, n) = ('u', 1) WHERE k = 1 RETURNING *;
UPDATE kv SET (v, n) = (1) WHERE k = 1;
UPDATE kv SET (n, v) = (SELECT k2.n + 1, upper(k2.v) FROM kv k2 WHERE k2.k = kv.k) WHERE k = 1 RETURNING *;
UPDATE kv SET (n, v) = (SELECT n, v FROM kv);
UPDATE kv SET (n, v) = (SELECT 1, 'a', 2);
UPDATE kv SET v = 'a', v = 'b' WHERE k = 1;
UPDATE kv SET ctid = '(0,1)';
DROP TABLE kv, acct, inf, plain, nnd, big;
