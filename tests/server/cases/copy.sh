# COPY with server-side files (absolute paths under the case's directory,
# shown as CWD), \copy with client-side files, a 20000-row \copy, COPY
# with data inline; run by psql against the server and by the shell
printf '1\tone\n2\ttwo\n' > srv.txt
printf 'id,name\n3,"th,ree"\n' > srv.csv
printf '9\tnine\nbad\tline\n' > bad.txt
printf '4\tfour\n5\t\\N\n' > client.txt
seq 1 20000 | sed 's/.*/&\tvalue &/' > big.txt
mkdir adir
tupledb -X -f copy.sql -v srvin="$PWD/srv.txt" -v srvcsv="$PWD/srv.csv" \
  -v srvout="$PWD/out.txt" -v srvout2="$PWD/out2.csv" \
  -v nosuch="$PWD/nosuch.txt" -v dir="$PWD/adir" \
  -v nodir="$PWD/nodir/x.txt" -v srvbad="$PWD/bad.txt" \
  -v bigout="$PWD/bigout.txt" 2>&1 | sed "s|$PWD|CWD|g"
echo "exit ${PIPESTATUS[0]}"
cat out.txt out2.csv client_out.csv client_out.txt
cmp big.txt bigout.txt && echo "big.txt and bigout.txt are the same"
# COPY FROM STDIN inline and a CopyFail-like end of input
printf 'CREATE TABLE t (a int);\nCOPY t FROM STDIN;\n1\n2\n' | tupledb -X
printf 'COPY t TO STDOUT;\nCOPY t FROM STDIN WITH (FORMAT csv);\n3\n"4"\n\\.\nSELECT sum(a) FROM t;\nDROP TABLE t;\n' | tupledb -X -a
