# error positions: LINE n: with the caret, long lines cut to a window
tupledb -X -q < positions.sql
echo "exit $?"
