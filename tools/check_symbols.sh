#!/usr/bin/env bash
# check_symbols.sh OBJECT... -- fail if any global symbol defined in the
# given objects/archives lacks the tdb_ / tupledb_ prefix (main excepted),
# or if it is a name that libpg_query defines (when libpg_query is present).
set -euo pipefail

bad=$(nm -g --defined-only "$@" 2>/dev/null \
      | awk 'NF==3 {print $3}' \
      | grep -Ev '^(tdb_|tupledb_|main$)' | sort -u || true)
if [ -n "$bad" ]; then
  echo "check-symbols: global symbols without the tdb_/tupledb_ prefix:" >&2
  echo "$bad" | sed 's/^/  /' >&2
  exit 1
fi

pgq=/usr/lib/x86_64-linux-gnu/libpg_query.a
if [ -f "$pgq" ]; then
  clash=$(comm -12 \
    <(nm -g --defined-only "$@" 2>/dev/null | awk 'NF==3 {print $3}' | sort -u) \
    <(nm -g --defined-only "$pgq" 2>/dev/null | awk 'NF==3 {print $3}' | sort -u) \
    | grep -v '^main$' || true)
  if [ -n "$clash" ]; then
    echo "check-symbols: names also defined by libpg_query:" >&2
    echo "$clash" | sed 's/^/  /' >&2
    exit 1
  fi
fi
echo "check-symbols: ok"
