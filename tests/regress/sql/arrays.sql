-- the one-dimensional arrays catalog queries use (types/array.c):
-- text[], name[], oid[], "char"[], int2[], int4[], int2vector
SELECT '{a,"b c",d}'::text[] AS t, '{}'::oid[] AS empty, '{ 1 , 2 }'::int2[] AS spaces;
SELECT '{"",NULLX,"a\"b","x,y"}'::text[] AS quoting, '{x}'::"char"[] AS c, '{pg_class}'::name[] AS n;
SELECT '{1,2}'::int2[] = '{1,2}', '{0}'::oid[] = '{0}', '{1}'::oid[] = '{0}', '{}'::text[] = '{}';
SELECT array_to_string('{a,b}'::text[] || ARRAY(SELECT 'x' || g FROM generate_series(1, 3) g), ', ');
SELECT NULL::text[] || '{a}'::text[] AS l, '{a}'::text[] || NULL::text[] AS r, '{}'::text[] || '{}'::text[] AS e;
SELECT 2 = ANY('{1,2}'::int2[]), 5 = ANY('{1,2}'::int2[]), 5 = ANY(NULL::int2[]), 1 <> ALL ('{2,3}'::oid[]), 1 = ANY('{}'::oid[]);
SELECT NULL::int2 = ANY('{1}'::int2[]) AS null_any, 'd' = any('{d,f}'::"char"[]) AS char_any;
SELECT ('{5,6,7}'::int2[])[2], ('{5,6,7}'::int2[])[9], ('{5,6,7}'::int2[])[0];
SELECT array_upper('{5,6}'::int2[], 1), array_upper('{}'::int2[], 1), array_upper('{5}'::int2[], 2);
SELECT '1 2 3'::int2vector AS v, ('1 2 3'::int2vector)[0] AS first, array_upper('4 5'::int2vector::int2[], 1) AS upper;
SELECT x FROM unnest('{q,r}'::text[]) x ORDER BY x;
SELECT count(*) FROM unnest('{}'::oid[]);
SELECT array_to_string(NULL::text[] || ARRAY(SELECT 'toast.' || x FROM unnest(NULL::text[]) x), ', ') = '' AS no_options;
SELECT ARRAY(SELECT g FROM generate_series(1, 0) g)::text AS empty_array;
SELECT ARRAY(SELECT relname FROM pg_class WHERE relname IN ('pg_attrdef', 'pg_attribute') ORDER BY 1);
-- ARRAY(subquery) values that went through a sort (a formed tuple)
SELECT g, ARRAY(SELECT 'x' || h FROM generate_series(1, g) h) AS a, ARRAY(SELECT h::name FROM generate_series(1, g - 1) h) AS n FROM generate_series(1, 3) g ORDER BY g DESC;
SELECT '{1,2}'::int2[]::text, '{a}'::text[]::varchar;
SELECT '{1'::int2[];
SELECT 'x'::oid[];
