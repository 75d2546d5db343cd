# backslash commands: \echo, \set/\unset and :variables, \timing, \q
tupledb -X -a < meta.sql 2>&1
echo "exit $?"
printf 'CREATE TABLE t (a int);\n\\foo bar\nDROP TABLE t;\n\\echo one \\echo two\n\\echo three \\\\ DROP TABLE nope;\n' | tupledb -X 2>&1
echo "exit $?"
