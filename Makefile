# tupledb -- top-level Makefile (GNU make).
#
#   make run [DATA=dir]  build tupledb and start it on a local data directory
#   make check           build and run every test (release + assertion builds)
#   make check-regress   the SQL regression suite (tests/regress) on the release build
#   make check-difftest  the differential tests against PostgreSQL 15
#   make check-server    `tupledb serve` with psql and a raw protocol client
#   make check-asan      the unit tests, the server tests and the SQL
#                        regression suite under AddressSanitizer + UBSan
#   make check-valgrind  the unit tests (assertion build) under valgrind
#   make check-symbols   every global symbol carries the tdb_/tupledb_ prefix,
#                        and check-layers
#   make check-layers    every #include follows the layering (src/README.md):
#                        no layer uses one above it, *_int.h stay private
#   make bench-mmgr      memory-context benchmark vs glibc, jemalloc, mimalloc
#   make bench-tuple     tuple-deforming benchmark vs a textbook deformer
#   make bench-heap      heap storage: bulk insert and sequential scan
#   make bench-nbtree    B-tree: random inserts, point lookups, the loader
#   make bench-tuplehash the compact tuple hash table alone: time, bytes/group
#   make bench-sortkey   the SortEntry sorts alone: radix vs introsort vs qsort_r
#   make bench-sql       whole SQL queries, tupledb shell vs psql + PostgreSQL 15
#   make bench-copy      COPY FROM of 1M rows (file, script, psql) vs PostgreSQL
#   make bench-types     numeric + x sum avg, float8 arithmetic and output vs PostgreSQL
#   make bench-hashagg   GROUP BY / EXCEPT of the TupleHashEntryData thread vs PostgreSQL:
#                        shell-timed (with big), then pgbench through the servers
#   make bench-hashagg-pgbench  only the latter: c, wide, except as pgbench tps
#   make bench-sort      ORDER BY over 5M rows at work_mem 64MB / 1GB, top-N, the
#                        power-of-two tuple case (runs, tuples per run) vs PostgreSQL
#   make bench-index     CREATE INDEX on 10M int4 / text keys (PostgreSQL
#                        parallel and serial), index sizes, INSERT with a
#                        PRIMARY KEY vs PostgreSQL (issue 22)
#   make bench-subqueries  EXISTS / NOT EXISTS nested in each other over a
#                        10,000-row table's self-joins vs PostgreSQL (issue 21)
#   make bench-toast     a 640 kB toasted value once per row of 1,000 (nested
#                        loop inner / outer, InitPlan, sort by it), each also on
#                        an untoasted copy, vs PostgreSQL (issue 10)
#   make bench-index-scan  reads through a B-tree (point, range, index-only,
#                        ORDER BY LIMIT, pgbench -S) vs PostgreSQL 15
#   make bench-server    pgbench round trips and per-connection memory,
#                        `tupledb serve` vs PostgreSQL 15
#   make bench-upsert    INSERT ... ON CONFLICT DO UPDATE through the
#                        servers with pgbench (issue 22)
#   make bench           the suite (issue 11): point queries, deform (16 and
#                        64 columns), hash aggregation (with big), sort, TOAST
#                        through the servers with pgbench -M simple /
#                        -M prepared; TDB_BENCH_ONLY="deform toast", QUICK=1,
#                        PG_BIN=/usr/lib/postgresql/17/bin (another
#                        PostgreSQL beside 15, in the same run)
#   make V=1 ...         print full command lines
#
# Build flavours live side by side under build/<flavour>/:
#   release  -O2, no assertions (what `make run` and the benchmarks use)
#   debug    -O1 -g, TDB_DEBUG: Assert() on, memory-context checking,
#            fault injection
#   asan     debug + -fsanitize=address,undefined

BUILD ?= release
ifeq ($(filter $(BUILD),release debug asan),)
$(error BUILD must be release, debug or asan)
endif

CC ?= cc
ifeq ($(V),1)
Q :=
else
Q := @
endif

WARNINGS := -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes \
	-Wshadow -Wpointer-arith -Werror=vla -Wimplicit-fallthrough -Wformat=2 \
	-Wmissing-format-attribute
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARNINGS) -Isrc -pthread -fno-strict-aliasing

ifeq ($(BUILD),release)
FLAVOUR_CFLAGS := -O2 -g
FLAVOUR_LDFLAGS :=
else ifeq ($(BUILD),debug)
FLAVOUR_CFLAGS := -O1 -g -DTDB_DEBUG
FLAVOUR_LDFLAGS :=
else
FLAVOUR_CFLAGS := -O1 -g -DTDB_DEBUG -fsanitize=address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=undefined
FLAVOUR_LDFLAGS := -fsanitize=address,undefined
endif

CFLAGS_ALL = $(BASE_CFLAGS) $(FLAVOUR_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = -pthread $(FLAVOUR_LDFLAGS) $(LDFLAGS)
LIBS := -lpg_query -lpcre2-8 -llz4 -lm

B := build/$(BUILD)

# Library sources: every .c under src/ except the program entry points.
LIB_SRCS := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CLI_SRCS := $(sort $(wildcard src/cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(B)/%.o)
# The shell without its main(), for the shell's unit tests (tests/unit/cli).
CLI_LIB_OBJS := $(filter-out $(B)/src/cli/main.o,$(CLI_OBJS))
CLI_LIBS := -lreadline
TEST_LIB_SRCS := tests/unit/test.c
TEST_LIB_OBJS := $(TEST_LIB_SRCS:%.c=$(B)/%.o)
# tests/unit/<layer>/test_<name>.c -> build/<flavour>/tests/<layer>_<name>
TEST_SRCS := $(sort $(wildcard tests/unit/*/test_*.c))
TEST_BINS := $(foreach t,$(TEST_SRCS),$(B)/tests/$(word 3,$(subst /, ,$(t)))_$(patsubst test_%.c,%,$(notdir $(t))))
# storage_smgr_smallseg: test_smgr.c once more, it and smgr.c compiled for
# 4-block segments (-DTDB_RELSEG_SIZE, see storage/block.h) so the tests
# cross segment boundaries every 32 KB.  The small smgr.o is linked ahead
# of the library, whose own smgr.o is then never pulled in.
SMALLSEG_DEFS := -DTDB_RELSEG_SIZE=4
SMALLSEG_TEST := $(B)/tests/storage_smgr_smallseg
TEST_BINS += $(SMALLSEG_TEST)

.PHONY: all run check check-asan check-valgrind check-symbols check-layers tests deps \
	deps-server-test check-server check-difftest \
	bench bench-mmgr bench-tuple bench-heap bench-nbtree bench-tuplehash bench-sortkey bench-sql bench-copy bench-types bench-hashagg bench-hashagg-pgbench bench-sort bench-index bench-index-scan bench-toast bench-subqueries bench-server bench-upsert clean format check-regress \
	regress-wrapper
.DEFAULT_GOAL := all

all: deps $(B)/tupledb

deps:
	$(Q)tools/deps.sh build

DATA ?= ./tdbdata
run: all
	$(B)/tupledb $(DATA)

$(B)/libtupledb.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/tupledb: $(CLI_OBJS) $(B)/libtupledb.a
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS) $(CLI_LIBS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< ($(BUILD))"
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

# Test binaries: one per test file.  Tests of the shell (tests/unit/cli)
# also link the shell's objects and readline.
define TEST_RULE
$(B)/tests/$(word 3,$(subst /, ,$(1)))_$(patsubst test_%.c,%,$(notdir $(1))): $(B)/$(1:%.c=%.o) $(if $(filter cli,$(word 3,$(subst /, ,$(1)))),$(CLI_LIB_OBJS)) $(TEST_LIB_OBJS) $(B)/libtupledb.a
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $$@ $$^ $(LIBS) $(if $(filter cli,$(word 3,$(subst /, ,$(1)))),$(CLI_LIBS))
endef
$(foreach t,$(TEST_SRCS),$(eval $(call TEST_RULE,$(t))))

$(B)/smallseg/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< ($(BUILD), 4-block segments)"
	$(Q)$(CC) $(CFLAGS_ALL) -Itests/unit $(SMALLSEG_DEFS) -MMD -MP -c -o $@ $<

$(SMALLSEG_TEST): $(B)/smallseg/tests/unit/storage/test_smgr.o \
		$(B)/smallseg/src/storage/smgr.o $(TEST_LIB_OBJS) $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(B)/tests/%.o: CFLAGS_ALL += -Itests/unit
$(B)/tests/unit/%.o: CFLAGS_ALL += -Itests/unit

# The shell's end-to-end tests (tests/cli/run.sh) run as one more "test
# binary" of each flavour, so tests/run_unit.sh counts them in its total.
CLI_E2E := $(B)/tests/cli_e2e
$(CLI_E2E): tests/cli/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the shell tests on this flavour\nexec "%s/tests/cli/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

# The server's end-to-end tests (tests/server/run.sh: psql 15 and a raw
# protocol client against `tupledb serve`), one more "test binary" of each
# flavour in the same way.  They need psql and python3: `deps-server-test`.
SERVER_E2E := $(B)/tests/server_e2e
$(SERVER_E2E): tests/server/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the server tests on this flavour\nexec "%s/tests/server/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

# Hash aggregation spilling end to end (tests/spill/run.sh: results,
# EXPLAIN ANALYZE, peak memory, temporary files after success, error and
# cancel), one more "test binary" of each flavour.
SPILL_E2E := $(B)/tests/spill_e2e
$(SPILL_E2E): tests/spill/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the spilling tests on this flavour\nexec "%s/tests/spill/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

# TOAST and the detoast cache end to end (tests/toast/run.sh: the
# cache's counters in every plan shape, slices, eviction, a concurrent
# writer through the server).
TOAST_E2E := $(B)/tests/toast_e2e
$(TOAST_E2E): tests/toast/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the TOAST tests on this flavour\nexec "%s/tests/toast/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

# VACUUM end to end (tests/vacuum/run.sh: removal, reuse without growth,
# a concurrent session holding the horizon), one more "test binary" of
# each flavour.
VACUUM_E2E := $(B)/tests/vacuum_e2e
$(VACUUM_E2E): tests/vacuum/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the VACUUM tests on this flavour\nexec "%s/tests/vacuum/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

# The layering checker's own test (tests/tools/check_layers_test.sh: the
# tree passes, each forbidden kind of include fails), one more "test
# binary" of each flavour.
LAYERS_TEST := $(B)/tests/tools_check_layers
$(LAYERS_TEST): tests/tools/check_layers_test.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the layering checker test\nexec "%s/tests/tools/check_layers_test.sh"\n' \
	  "$(CURDIR)" > $@ && chmod +x $@

# A full disk end to end (tests/diskfull/run.sh: TRUNCATE, DROP and
# opening the directory on a 16 MB tmpfs filled to the last byte; root
# only, skipped otherwise), one more "test binary" of each flavour.
DISKFULL_E2E := $(B)/tests/diskfull_e2e
$(DISKFULL_E2E): tests/diskfull/run.sh
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the full-disk tests on this flavour\nexec "%s/tests/diskfull/run.sh" "%s/$(B)/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $@ && chmod +x $@

tests: $(TEST_BINS) $(B)/tupledb $(CLI_E2E) $(SERVER_E2E) $(SPILL_E2E) \
	$(VACUUM_E2E) $(TOAST_E2E) $(DISKFULL_E2E) $(LAYERS_TEST)

deps-server-test:
	$(Q)tools/deps.sh server-test

# The fast tier: unit tests of the release build (8-byte headers, the
# production paths) and of the assertion build (checking headers, fault
# injection), totalled into one "N passed, N failed" line.
check: deps deps-server-test
	$(Q)tools/deps.sh oracle
	$(Q)$(MAKE) --no-print-directory BUILD=release tests
	$(Q)$(MAKE) --no-print-directory BUILD=debug tests
	$(Q)$(MAKE) --no-print-directory BUILD=release check-symbols
	$(Q)$(MAKE) --no-print-directory regress-wrapper
	$(Q)tests/run_unit.sh build/release build/debug

check-asan: deps deps-server-test
	$(Q)$(MAKE) --no-print-directory BUILD=asan tests build/asan/tupledb
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  tests/run_unit.sh build/asan
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  tests/regress/run.sh build/asan/tupledb

check-valgrind: deps
	$(Q)$(MAKE) --no-print-directory BUILD=debug tests
	$(Q)TDB_TEST_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
	  tests/run_unit.sh build/debug

# The SQL regression suite (tests/regress/run.sh): every sql/NAME.sql
# through the release shell, diffed against PostgreSQL 15's expected/NAME.out.
# `make check` runs it as one more "test binary" of the release build,
# build/release/tests/regress (a generated wrapper), so run_unit.sh totals
# its RESULT line; `make check REGRESS=0` leaves it out.  Files listed in
# tests/regress/known_failures.txt count as skipped, not failed.
REGRESS ?= 1
REGRESS_WRAPPER := build/release/tests/regress

check-regress: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)tests/regress/run.sh build/release/tupledb

# The differential expression test (tests/difftest/run.sh): 10,000 random
# expressions through PostgreSQL 15 and tupledb, results compared; run by
# `make check` as build/release/tests/difftest (skipped without PostgreSQL).
DIFFTEST_WRAPPER := build/release/tests/difftest

check-difftest: deps
	$(Q)tools/deps.sh oracle
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)tests/difftest/run.sh build/release/tupledb

regress-wrapper:
ifeq ($(REGRESS),1)
	@mkdir -p $(dir $(DIFFTEST_WRAPPER))
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the differential expression test\nexec "%s/tests/difftest/run.sh" "%s/build/release/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $(DIFFTEST_WRAPPER) && chmod +x $(DIFFTEST_WRAPPER)
	@mkdir -p $(dir $(REGRESS_WRAPPER))
	$(Q)printf '#!/bin/sh\n# generated by the Makefile: the SQL regression suite\nexec "%s/tests/regress/run.sh" "%s/build/release/tupledb"\n' \
	  "$(CURDIR)" "$(CURDIR)" > $(REGRESS_WRAPPER) && chmod +x $(REGRESS_WRAPPER)
else
	$(Q)rm -f $(REGRESS_WRAPPER) $(DIFFTEST_WRAPPER)
endif

# The server's end-to-end tests alone, on the release build.
check-server: deps deps-server-test
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)tests/server/run.sh build/release/tupledb

# Every global symbol we define must carry our prefix, so that nothing
# collides with the PostgreSQL names libpg_query exports; and the layers
# must include each other only downwards (check-layers).
check-symbols: $(B)/libtupledb.a $(CLI_OBJS) check-layers
	$(Q)tools/check_symbols.sh $(filter-out check-layers,$^)

# Every #include of src/, tests/ and bench/ against the layer table in
# tools/check_layers.sh (src/README.md explains the layers).
check-layers:
	$(Q)tools/check_layers.sh

# Benchmarks: bench/<name>/bench_<name>.c against the release library.
# bench/common/bench.h (header-only, static inline) holds what they share.
$(B)/bench/%.o: CFLAGS_ALL += -Ibench/common

bench-mmgr: deps
	$(Q)tools/deps.sh bench-mmgr
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_mmgr
	$(Q)bench/mmgr/run.sh build/release/bench/bench_mmgr

$(B)/bench/bench_mmgr: $(B)/bench/mmgr/bench_mmgr.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS) -lm

bench-tuple: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_tuple
	$(Q)bench/tuple/run.sh build/release/bench/bench_tuple

$(B)/bench/bench_tuple: $(B)/bench/tuple/bench_tuple.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

bench-tuplehash: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_tuplehash
	$(Q)build/release/bench/bench_tuplehash 10000000 1000000
	$(Q)build/release/bench/bench_tuplehash 10000000 10000000

$(B)/bench/bench_tuplehash: $(B)/bench/tuplehash/bench_tuplehash.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

bench-sortkey: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_sort
	$(Q)build/release/bench/bench_sort

$(B)/bench/bench_sort: $(B)/bench/sort/bench_sort.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

bench-copy: deps $(B)/tupledb
	$(Q)bench/copy/run.sh $(B)/tupledb

bench-heap: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_heap
	$(Q)bench/heap/run.sh build/release/bench/bench_heap

bench-nbtree: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/bench/bench_nbtree
	$(Q)bench/nbtree/run.sh build/release/bench/bench_nbtree

$(B)/bench/bench_nbtree: $(B)/bench/nbtree/bench_nbtree.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(B)/bench/bench_heap: $(B)/bench/heap/bench_heap.o $(B)/libtupledb.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

# Whole queries through each engine's own client: the tupledb shell
# against psql and a throwaway PostgreSQL 15 (bench/sql/run.sh).
bench-sql: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb

# The same harness with the "types" workload set (bench/sql/sets/types.sh):
# numeric and float8 work over 1M values (issue 6).
bench-types: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb types

# The same harness with the "hashagg" workload set (bench/sql/sets/hashagg.sh):
# the GROUP BY / EXCEPT workloads of the TupleHashEntryData thread, with
# EXPLAIN ANALYZE's Batches / Memory Usage / Disk Usage (issue 8); then
# c, wide and except as pgbench tps through each engine's server
# (bench-hashagg-pgbench), a subsection of the same RESULTS.md section.
bench-hashagg: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb hashagg
	$(Q)bench/server/run.sh build/release/tupledb hashagg

# bench-server's harness with the "hashagg" workload set
# (bench/server/sets/hashagg.sh): c, wide and except, pgbench -M prepared
# and -M simple against `tupledb serve` and PostgreSQL 15 (issue 8).
bench-hashagg-pgbench: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/server/run.sh build/release/tupledb hashagg

# Index scans (issue 22): bench-server's harness with the "index" workload
# set (bench/server/sets/index.sh): primary key lookups on 10M rows,
# 1,000-row ranges, an index-only count, ORDER BY pk LIMIT 10 and
# `pgbench -S` after `pgbench -i -s 10`, against `tupledb serve` and
# PostgreSQL 15 configured alike.
bench-index-scan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/server/run.sh build/release/tupledb index

# The benchmark suite (issue 11): bench-server's harness with the "suite"
# workload set (bench/server/sets/suite.sh), after installing what it runs
# (tools/deps.sh bench: PostgreSQL 15, gnuplot, perf).  Not part of
# `make check`.
bench: deps
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/server/run.sh build/release/tupledb suite

# The same harness with the "sort" workload set (bench/sql/sets/sort.sh):
# ORDER BY over 5M rows (bigint, text, numeric keys) at work_mem 64MB and
# 1GB, ORDER BY ... LIMIT 10, and the power-of-two MinimalTuple case of the
# "Reducing chunk header sizes" thread, with trace_sort's runs and EXPLAIN
# ANALYZE's Sort Method of both engines (issue 9).  TDB_BENCH_ONLY="pow2
# k64" picks workloads, QUICK=1 is a one-round run on small tables.
bench-sort: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb sort

# The same harness with the "index" workload set (bench/sql/sets/index.sh):
# CREATE INDEX on 10M int4 keys (distinct, and ten rows per key) and on
# 10M text keys at maintenance_work_mem 64MB, PostgreSQL with its default
# 2 parallel workers and serially; each index's size in both; INSERT of
# 1M rows with and without an int4 PRIMARY KEY (issue 22).
bench-index: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb index

# The same harness with the "toast" workload set (bench/sql/sets/toast.sh):
# one ~640 kB toasted value (uncompressed out of line, and lz4-compressed)
# used once per row of a 1,000-row table -- nested loop with the toasted
# table inner and outer, an InitPlan parameter, 1,000 rows sorted by it --
# each query also on an untoasted in-memory copy of the value, with both
# engines' plans checked (issue 10).  TDB_BENCH_ONLY="nli_lz4" picks
# queries (a query's untoasted twin comes along), QUICK=1 is one round,
# TDB_BENCH_PG_ONLY=1 measures PostgreSQL alone.
bench-toast: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb toast

# The same harness with the "subqueries" workload set
# (bench/sql/sets/subqueries.sh): EXISTS / NOT EXISTS nested in each other
# in the shape of PostgreSQL's regression tests over a 10,000-row table,
# each plan checked to be joins at every level (issue 21).
bench-subqueries: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/sql/run.sh build/release/tupledb subqueries

# pgbench against `tupledb serve` and a throwaway PostgreSQL 15 configured
# alike: SELECT 1 and a small query, tps ratios, per-connection memory
# (bench/server/run.sh).
bench-server: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/server/run.sh build/release/tupledb

# bench-server's harness with the "upsert" workload set
# (bench/server/sets/upsert.sh): INSERT ... ON CONFLICT DO UPDATE with
# pgbench -M simple and -M prepared (issue 22).
bench-upsert: deps
	$(Q)$(MAKE) --no-print-directory BUILD=release build/release/tupledb
	$(Q)bench/server/run.sh build/release/tupledb upsert

clean:
	rm -rf build

format:
	clang-format -i $(wildcard src/*/*.[ch]) $(wildcard tests/unit/*.[ch]) $(wildcard tests/unit/*/*.c)

-include $(shell find build -name '*.d' 2>/dev/null)
