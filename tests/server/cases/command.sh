# -c strings: one Query each, every result shown, the last decides the status
tupledb -X -c 'CREATE TABLE c (x int); INSERT INTO c VALUES (1), (2); SELECT * FROM c'
echo "exit $?"
tupledb -X -c 'SELECT 1 AS one; SELECT 2 AS two' -c 'SELECT x FROM c ORDER BY x DESC'
echo "exit $?"
tupledb -X -c 'INSERT INTO c VALUES (3); SELECT 1/0'
echo "exit $?"
tupledb -X -c 'SELECT count(*) FROM c'
echo "exit $?"
tupledb -X -c 'BEGIN; INSERT INTO c VALUES (4); COMMIT; SELECT 1/0'
echo "exit $?"
tupledb -X -c 'SELECT count(*) FROM c' -c 'DROP TABLE IF EXISTS c, nosuch'
echo "exit $?"
tupledb -X -c ''
echo "exit $?"
tupledb -X -c 'selec 1'
echo "exit $?"
tupledb -X -A -t -c 'SELECT 1, NULL, $$a|b$$'
echo "exit $?"
tupledb -X -v ON_ERROR_STOP=1 -c 'SELECT 1/0' -c 'SELECT 2'
echo "exit $?"
