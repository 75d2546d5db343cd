# statement splitting: -e echoes exactly what was sent for each statement
tupledb -X -q -e < split.sql
echo "exit $?"
