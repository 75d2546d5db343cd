# statements nested past max_stack_depth, and past the grammar's stack:
# PostgreSQL's errors, and the session goes on (the C API on the shell's
# own thread)
chain() { printf '%s' "$1"; yes -- "$2" | head -n "$3" | tr -d '\n'; printf '%s;\n' "$4"; }
{
  chain 'SELECT 1' '+1' 999 ''
  chain 'SELECT 1' '+1' 99999 ''
  chain "SELECT 'x'" "||'x'" 999999 ''
  chain 'SELECT 1' ' UNION ALL SELECT 1' 99999 ''
  echo "SET max_stack_depth = '100kB';"
  chain 'SELECT 1' '+1' 9999 ''
  echo "RESET max_stack_depth;"
  chain 'SELECT ' '(' 20000 "$(yes ')' | head -n 20000 | tr -d '\n')"
  echo "SELECT 'still here';"
} > deep.sql
tupledb -X -q -f deep.sql
echo "exit $?"
