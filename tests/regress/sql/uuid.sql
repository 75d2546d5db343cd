--
-- uuid: the input forms PostgreSQL accepts, canonical output,
-- comparisons, hashing (GROUP BY, DISTINCT, hash joins), casts with the
-- string types, gen_random_uuid(), NULLs and errors.
--

SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS canonical;
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS upper_case,
       '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid AS braces;
SELECT 'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid AS no_hyphens,
       'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'::uuid AS every_group,
       '{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}'::uuid AS some_groups;
SELECT '00000000-0000-0000-0000-000000000000'::uuid AS nil, 'FfFfFfFf-ffff-FFFF-ffff-ffffffffffff'::uuid AS max;
-- rejected forms
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111'::uuid;
SELECT ' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 '::uuid;
SELECT 'a0eebc999c0b4ef8bb6d6bb9bd380a11-'::uuid;
SELECT '-a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid;
SELECT 'a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT 'a0e-ebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid;
SELECT '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}x'::uuid;
SELECT '{{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}}'::uuid;
SELECT 'g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT ''::uuid;

-- comparisons: unsigned bytes, left to right
SELECT '00000000-0000-0000-0000-000000000001'::uuid < '10000000-0000-0000-0000-000000000000'::uuid AS lt,
       'ffffffff-0000-0000-0000-000000000000'::uuid > '7fffffff-ffff-ffff-ffff-ffffffffffff'::uuid AS gt_unsigned,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11'::uuid AS eq;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid <> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12'::uuid AS ne,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid <= 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS le,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid >= 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS ge;
SELECT NULL::uuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS null_eq;
SELECT uuid_cmp('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12') AS cmp,
       uuid_hash('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS hash,
       uuid_hash('00000000-0000-0000-0000-000000000000') AS hash_nil;

CREATE TABLE ids (n int, u uuid);
INSERT INTO ids VALUES (1, 'ffffffff-ffff-ffff-ffff-ffffffffffff'), (2, '00000000-0000-0000-0000-000000000000'),
  (3, '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'), (4, NULL), (5, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'),
  (6, '80000000-0000-0000-0000-000000000000');
SELECT n, u FROM ids ORDER BY u, n;
SELECT n, u FROM ids ORDER BY u DESC, n;
SELECT u, count(*) FROM ids GROUP BY u ORDER BY u;
SELECT DISTINCT u FROM ids ORDER BY 1;
SELECT a.n, b.n FROM ids a JOIN ids b ON a.u = b.u AND a.n < b.n ORDER BY 1, 2;
SELECT n FROM ids WHERE u > '7fffffff-ffff-ffff-ffff-ffffffffffff' ORDER BY n;
SELECT n FROM ids WHERE u IN ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '00000000000000000000000000000000') ORDER BY n;
INSERT INTO ids VALUES (7, 'not a uuid');

-- casts with the string types
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::text AS to_text,
       'A0EEBC999C0B4EF8BB6D6BB9BD380A11'::text::uuid AS from_text,
       '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::varchar::uuid AS from_varchar,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::varchar(8) AS to_varchar8;
SELECT length('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::text) AS len,
       'x' || 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS concat;
SELECT 'zz'::text::uuid;
SELECT 1::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::bytea;

-- gen_random_uuid: version 4, variant 10, a new value per call
SELECT length(gen_random_uuid()::text) AS len,
       substr(gen_random_uuid()::text, 15, 1) AS version,
       substr(gen_random_uuid()::text, 20, 1) IN ('8', '9', 'a', 'b') AS variant,
       gen_random_uuid() <> gen_random_uuid() AS differ;
CREATE TABLE gen (u uuid);
INSERT INTO gen SELECT gen_random_uuid() FROM generate_series(1, 200);
SELECT count(DISTINCT u) AS distinct_values, count(*) AS rows FROM gen;
SELECT count(*) FROM gen WHERE u::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
