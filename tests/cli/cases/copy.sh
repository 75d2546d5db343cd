# COPY FROM STDIN with data in the script, COPY TO STDOUT, \copy with
# client-side files, stdin/stdout and pstdin/pstdout
printf '1\tone\n2\t\\N\n' > data.txt
printf 'id,name\n3,"th,ree"\n4,\n' > data.csv
tupledb -X -f copy.sql
echo "exit $?"
cat out.txt out.csv
# the same through stdin, with -a; -q hides the tags
tupledb -X -a -q < copy.sql 2>&1 | tail -n 12
# -c: COPY FROM STDIN reads the shell's stdin
printf '50\tfifty\n\\.\nignored\n' | tupledb -X -c 'COPY cc FROM STDIN'
echo "exit $?"
printf '51\tfifty-one\n' | tupledb -X -c '\copy cc from pstdin'
printf 'x\tbad\n' | tupledb -X -c 'COPY cc FROM STDIN'
echo "exit $?"
tupledb -X -c 'COPY (SELECT id FROM cc WHERE id >= 50 ORDER BY id) TO STDOUT'
tupledb -X -c 'DROP TABLE cc'
