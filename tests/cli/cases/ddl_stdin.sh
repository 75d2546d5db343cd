# the regression harness's way: psql -X -a -q < file, both streams merged
tupledb -X -a -q < ddl.sql 2>&1
