# -v ON_ERROR_STOP=1: the first error ends a script with exit status 3
tupledb -X -v ON_ERROR_STOP=1 < stop.sql
echo "exit $?"
tupledb -X -v ON_ERROR_STOP=1 -f stop.sql
echo "exit $?"
tupledb -X -q -c 'DROP TABLE IF EXISTS s1, s2'
tupledb -X -v ON_ERROR_STOP=1 -c 'DROP TABLE nope' -c 'CREATE TABLE never (a int)'
echo "exit $?"
tupledb -X -c 'DROP TABLE never'
echo "exit $?"
printf '\\set ON_ERROR_STOP on\nDROP TABLE nope;\nCREATE TABLE never (a int);\n' | tupledb -X
echo "exit $?"
printf '\\set ON_ERROR_STOP maybe\n\\unset ON_ERROR_STOP\nDROP TABLE nope;\nCREATE TABLE t (a int);\nDROP TABLE t;\n' | tupledb -X
echo "exit $?"
tupledb -X -f stop.sql -f stop.sql
echo "exit $?"
tupledb -X -f no_such_file.sql
echo "exit $?"
