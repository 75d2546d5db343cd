-- VARIADIC calls of the VARIADIC "any" functions concat and concat_ws:
-- the array's elements are the arguments, and a NULL array makes the
-- result NULL
SELECT concat(VARIADIC NULL::int[]) IS NULL AS concat_null,
       concat_ws(',', VARIADIC NULL::int[]) IS NULL AS concat_ws_null,
       concat_ws(NULL, VARIADIC '{x}'::text[]) IS NULL AS sep_null;
SELECT concat(VARIADIC '{b,c}'::text[]), concat(VARIADIC '{1,2}'::int4[]),
       concat(VARIADIC '{}'::int4[]) = '' AS empty_is_empty_string;
SELECT concat_ws('-', VARIADIC '{x,y,z}'::text[]),
       concat(VARIADIC '{"1 2",x}'::name[]), concat(VARIADIC '{1,2}'::oid[]);
SELECT a, concat(VARIADIC b), concat_ws('+', VARIADIC b),
       concat(VARIADIC b) IS NULL AS is_null
  FROM (VALUES ('ab', '{a,b}'::text[]), ('c', '{c}'), ('q', NULL)) v(a, b)
  ORDER BY a;
SELECT concat(VARIADIC a::text[]) FROM (VALUES ('{1,2}'), ('{}')) v(a);
-- printed back with VARIADIC
CREATE TABLE vt (a text CHECK (concat_ws(',', VARIADIC '{x,y}'::text[]) <> a));
SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'vt'::regclass;
INSERT INTO vt VALUES ('x,y');
INSERT INTO vt VALUES ('x');
SELECT a FROM vt;
DROP TABLE vt;
-- errors: not an array, more than the array as variadic arguments, a
-- function that is not variadic
SELECT concat(VARIADIC 1);
SELECT concat(VARIADIC NULL);
SELECT concat('a', VARIADIC '{b,c}'::text[]);
SELECT lower(VARIADIC '{a}'::text[]);
-- VARIADIC of a function that is not variadic is an ordinary argument
SELECT upper(VARIADIC 'a');
