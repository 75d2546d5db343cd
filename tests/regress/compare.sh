# compare.sh -- how a regression file's output is compared with
# PostgreSQL 15's, sourced by tests/regress/run.sh (the shell) and
# tests/server/run.sh (psql against the server).
#
#   same_regress_output EXPECTED GOT     status 0 if they match
#   regress_diff EXPECTED GOT            their unified diff (3 lines of context)
#
# Byte for byte, but for one field: the Owner of psql's unaligned
# relation lists (\dt, \di rows "schema|name|table|owner|...") names the
# bootstrap role, which is the regen role in expected/ and the OS user or
# the test role here, so it compares as "OWNER".  Files list relations
# unaligned for this (aligned, the column widths would differ too).

regress_owner_field='s/^\([^|]*|[^|]*|\(table\|index\)|\)[^|]*/\1OWNER/'

same_regress_output() {
  cmp -s "$1" "$2" && return 0
  cmp -s <(sed "$regress_owner_field" "$1") <(sed "$regress_owner_field" "$2")
}

regress_diff() {
  diff -U3 <(sed "$regress_owner_field" "$1") <(sed "$regress_owner_field" "$2") \
    | sed "1s|^--- .*|--- $1|; 2s|^+++ .*|+++ $2|"
}
