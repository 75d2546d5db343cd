# a statement without a semicolon at the end of input still runs
printf 'CREATE TABLE ns (a int);\nDROP TABLE ns' | tupledb -X
echo "exit $?"
printf 'CREATE TABLE ns (a int' | tupledb -X
echo "exit $?"
