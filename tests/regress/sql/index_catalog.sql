-- The catalog side of indexes that needs no index (issue 22): the B-tree
-- operator classes of tupledb's types, pg_indexes, the size functions,
-- pg_get_indexdef / pg_get_constraintdef on what is not an index or key.
-- What needs an index is in index_describe.sql.
SELECT * FROM pg_opclass
 WHERE opcmethod = 403 AND opcdefault
   AND opcintype IN (16, 17, 18, 19, 20, 21, 23, 25, 26, 700, 701, 1042,
                     1082, 1083, 1114, 1184, 1186, 1700, 2950)
 ORDER BY oid;
SELECT * FROM pg_opfamily
 WHERE oid IN (SELECT opcfamily FROM pg_opclass
                WHERE opcmethod = 403 AND opcdefault
                  AND opcintype IN (16, 17, 18, 19, 20, 21, 23, 25, 26, 700,
                                    701, 1042, 1082, 1083, 1114, 1184, 1186,
                                    1700, 2950))
 ORDER BY oid;
-- the integer, text and datetime families, cross-type members included
SELECT amopfamily, amoplefttype, amoprighttype, amopstrategy, amoppurpose,
       amopopr, amopmethod, amopsortfamily
  FROM pg_amop
 WHERE amopfamily IN (1976, 1994, 434)
   AND amoplefttype IN (21, 23, 20, 25, 19, 1082, 1114, 1184)
   AND amoprighttype IN (21, 23, 20, 25, 19, 1082, 1114, 1184)
 ORDER BY 1, 2, 3, 4;
SELECT amprocfamily, amproclefttype, amprocrighttype, amprocnum
  FROM pg_amproc
 WHERE amprocfamily IN (1976, 1994, 1970)
   AND amproclefttype IN (21, 23, 20, 25, 19, 700, 701)
   AND amprocrighttype IN (21, 23, 20, 25, 19, 700, 701)
 ORDER BY 1, 2, 3, 4;
-- what psql and drivers join
SELECT c.opcname, f.opfname, a.amname
  FROM pg_opclass c JOIN pg_opfamily f ON f.oid = c.opcfamily
       JOIN pg_am a ON a.oid = c.opcmethod
 WHERE c.opcintype = 'int4'::regtype AND c.opcdefault AND a.amname = 'btree';
SELECT a.amname, count(*) FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE c.oid IN (1978, 3126, 10065) GROUP BY 1;
-- no index anywhere yet
CREATE TABLE ic (a int, b text CHECK (b <> ''), c int CONSTRAINT c_pos CHECK (c > 0));
SELECT * FROM pg_indexes WHERE schemaname = 'public';
SELECT relname, relhasindex FROM pg_class WHERE relname = 'ic';
-- sizes: no indexes, so the total is the table's
SELECT pg_relation_size('ic'), pg_table_size('ic'), pg_indexes_size('ic'),
       pg_total_relation_size('ic');
SELECT pg_indexes_size(0), pg_total_relation_size(0);
SELECT pg_indexes_size('nosuch');
-- NULL for what is not an index, a column it lacks, no such constraint
SELECT pg_get_indexdef('ic'::regclass) IS NULL,
       pg_get_indexdef('ic'::regclass, 1, true) IS NULL,
       pg_get_indexdef(0) IS NULL, pg_get_indexdef(0, 0, false) IS NULL,
       pg_get_constraintdef(0) IS NULL, pg_get_constraintdef(0, true) IS NULL;
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true)
  FROM pg_constraint WHERE conrelid = 'ic'::regclass ORDER BY 1;
DROP TABLE ic;
