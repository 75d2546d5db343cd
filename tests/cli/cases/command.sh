# -c: each string sent whole; the last -c decides the exit status
tupledb -X -c 'CREATE TABLE a (x int); CREATE TABLE b (y int)' \
        -c 'COMMIT' -c '\echo from a backslash -c' \
        -c 'CREATE TABLE c (z int); CREATE TABL d (w int)' \
        -c 'DROP TABLE a, b'
echo "exit $?"
tupledb -X -q -c 'DROP TABLE c'
echo "exit $?"
tupledb -X -c 'DROP TABLE nope'
echo "exit $?"
tupledb -X -a -c 'BEGIN; CREATE TABLE e (x int); COMMIT' -c 'DROP TABLE e'
echo "exit $?"
