# \i FILE: the included file's errors carry PROG:FILE:LINE:
printf '\\i inc.sql\n\\i missing.sql\nDROP TABLE from_include;\n' | tupledb -X -q
echo "exit $?"
printf '\\i inc.sql\nDROP TABLE from_include;\n' > outer.sql
tupledb -X -q -f outer.sql
echo "exit $?"
