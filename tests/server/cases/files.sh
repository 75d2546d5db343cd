# the same SQL files through -f, stdin and -a -q
tupledb -X -a -f results.sql
echo "exit $?"
tupledb -X -q < messages.sql 2>&1
echo "exit $?"
tupledb -X -a -f messages.sql
echo "exit $?"
tupledb -X -a -f vars.sql 2>&1
echo "exit $?"
