# psql's \d and \dt (list relations) read the pg_catalog views
# (src/parser/system_views.c); the shell answers them itself.  The Owner
# column differs between the two runs (the server's superuser is
# "tester", the shell's the OS user), so the lists are printed unaligned
# with that column masked; tests/server/run.sh checks the aligned layout
# against PostgreSQL 15 (describe_pg15).
owner() { sed 's/|[^|]*$/|OWNER/'; }
tupledb -X -q -c 'CREATE TABLE d1 (a int NOT NULL DEFAULT 5, b varchar(10), c numeric(8,2) CHECK (c > 0))' -c 'CREATE TABLE "D2" (x int)' -c 'CREATE TABLE e (y text)'
tupledb -X -A -c '\dt' | owner
echo "exit ${PIPESTATUS[0]}"
tupledb -X -A -c '\d' | owner
tupledb -X -A -c '\dt d*' | owner
tupledb -X -A -c '\dt "D2"' | owner
tupledb -X -c '\dt nosuch'
echo "exit $?"
tupledb -X -c '\d d1'
