# psql's \d and \dt (list relations) read the pg_catalog views
# (src/sql/system_views.c); the shell answers them itself
tupledb -X -q -c 'CREATE TABLE d1 (a int NOT NULL DEFAULT 5, b varchar(10), c numeric(8,2) CHECK (c > 0))' -c 'CREATE TABLE "D2" (x int)' -c 'CREATE TABLE e (y text)'
tupledb -X -c '\dt'
echo "exit $?"
tupledb -X -c '\d'
tupledb -X -c '\dt d*'
tupledb -X -c '\dt "D2"'
tupledb -X -c '\dt nosuch'
echo "exit $?"
