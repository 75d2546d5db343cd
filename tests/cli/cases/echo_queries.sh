# -e echoes each statement as sent; -a echoes input lines
printf -- '-- comment first\nCREATE TABLE q (a int)   ;  DROP\nTABLE q;\n' | tupledb -X -e
echo "exit $?"
