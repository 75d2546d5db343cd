#!/usr/bin/env bash
# regen_expected.sh -- make tests/server/expected/NAME.out with real
# PostgreSQL 15, for each tests/server/sql/NAME.sql that run.sh's psql
# group runs through psql against `tupledb serve`.
#
#   tests/server/regen_expected.sh            every sql/*.sql
#   tests/server/regen_expected.sh NAME...    only sql/NAME.sql
#
# The regression suite's script does the work (a throwaway PostgreSQL
# 15, a fresh database per file, psql -X -a -q with LC_ALL=C,
# PGCLIENTENCODING=UTF8, PGTZ=UTC and the lines of sql/NAME.env, if
# any), here on this directory's sql/ and expected/; run.sh runs each
# file against tupledb in the same client environment.  The expected
# files are only ever written this way.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REGEN_DIR=$HERE exec "$HERE/../regress/regen_expected.sh" "$@"
