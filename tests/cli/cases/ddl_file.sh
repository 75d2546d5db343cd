# -f FILE: errors carry PROG:FILE:LINE:; stdout and stderr kept apart
tupledb -X -a -f ddl.sql
