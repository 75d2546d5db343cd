/*
 * test_indexsort.c -- sorting a B-tree's entries for CREATE INDEX
 * (executor/indexsort.h), against a model: random rows (NULLs, ten-fold
 * duplicates) of every kind of key the sort treats differently -- the
 * (key, TID) pairs of int2 / int4 / int8 / oid / date keys, ASC and DESC,
 * NULLS FIRST and LAST, packed into one number or not (the table's size
 * decides); index tuples behind an exact (bool), abbreviated
 * (text, numeric) or no (interval) normalized key; two columns -- in
 * memory and spilled at the smallest work_mem (several merge passes).
 * The emitted tuples must be exactly tdb_bt_form_tuple's for each row,
 * every row once, in strictly increasing tdb_bt_compare_tuples order.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "executor/execindex.h"
#include "executor/indexsort.h"
#include "test.h"
#include "types/builtins.h"

static char temp_dir[64];
/* rows get a NULL key 7 times in 8 (else once in 13) */
static bool mostly_null;

/* One key column of a test index. */
typedef struct Col {
    Oid type;
    int16 option; /* INDOPTION_* */
} Col;

typedef struct Check {
    BTIndexData *bt;
    Datum (*values)[2];
    bool (*isnull)[2];
    int nrows;
    int emitted;
    bool *seen;
    IndexTuple prev; /* the previous tuple (a BLCKSZ buffer) */
    bool have_prev;
    int bad_order, bad_bytes, dup_rows;
} Check;

static BTIndexData *
make_index(const Col *cols, int ncols)
{
    TupleDesc desc = tdb_tupdesc_create(ncols);
    RelationIndex *ri = tdb_palloc0(sizeof(RelationIndex));
    int16 *attnums = tdb_palloc(sizeof(int16) * (Size)ncols);
    int16 *options = tdb_palloc(sizeof(int16) * (Size)ncols);
    BTIndexData *bt = tdb_palloc0(sizeof(BTIndexData));

    for (int i = 0; i < ncols; i++) {
        const TypeInfo *t = tdb_type_lookup(cols[i].type);

        tdb_tupdesc_init_attr(desc, i, "k", cols[i].type, -1, t->len, t->byval,
                              t->align, t->storage);
        attnums[i] = (int16)(i + 1);
        options[i] = cols[i].option;
    }
    tdb_tupdesc_finalize(desc);
    snprintf(ri->ri_name, sizeof(ri->ri_name), "i");
    ri->ri_natts = ncols;
    ri->ri_nkeyatts = ncols;
    ri->ri_attnums = attnums;
    ri->ri_options = options;
    tdb_bt_index_init(bt, 1, "i", desc);
    tdb_exec_index_comparators(bt, ri);
    return bt;
}

/* A value of type for the random number r (r < 1000: ten rows each). */
static Datum
value_of(Oid type, uint64 r)
{
    char buf[64];

    switch (type) {
    case INT2OID:
        return Int16GetDatum((int16)(r * 37 % 1000) - 500);
    case INT4OID:
    case DATEOID:
        return Int32GetDatum((int32)(r * 7919 % 1000) * 1000003 - 500000000);
    case INT8OID:
        return Int64GetDatum((int64)(r * 7919 % 1000) * 10000000019LL -
                             (int64)5000000000000LL);
    case OIDOID:
        /* both halves of the unsigned range */
        return UInt32GetDatum((uint32)(r * 7919 % 1000) * 4294967u);
    case BOOLOID:
        return BoolGetDatum(r % 2 == 0);
    case TEXTOID:
        /* equal 8-byte prefixes, so ties go past the abbreviated key */
        snprintf(buf, sizeof(buf), "prefix__%llu%s",
                 (unsigned long long)(r * 7919 % 1000), r % 3 ? "" : "x");
        return tdb_type_input(TEXTOID, buf, -1);
    case NUMERICOID:
        snprintf(buf, sizeof(buf), "%lld.%03d",
                 (long long)(r * 7919 % 1000) - 500, (int)(r % 7));
        return tdb_type_input(NUMERICOID, buf, -1);
    case INTERVALOID:
        snprintf(buf, sizeof(buf), "%d days %d hours", (int)(r * 7919 % 1000),
                 (int)(r % 24));
        return tdb_type_input(INTERVALOID, buf, -1);
    default:
        return (Datum)0;
    }
}

static void
check_emit(void *arg, IndexTuple itup)
{
    Check *c = arg;
    BlockNumber row = ItemPointerGetBlockNumber(&itup->t_tid);
    IndexTuple want;

    c->emitted++;
    if (row >= (BlockNumber)c->nrows || c->seen[row] ||
        ItemPointerGetOffsetNumber(&itup->t_tid) != 1 + row % 7) {
        c->dup_rows++;
        return;
    }
    c->seen[row] = true;
    want =
        tdb_bt_form_tuple(c->bt, c->values[row], c->isnull[row], &itup->t_tid);
    if (IndexTupleSize(want) != IndexTupleSize(itup) ||
        memcmp(want, itup, IndexTupleSize(want)) != 0)
        c->bad_bytes++;
    tdb_pfree(want);
    if (c->have_prev && tdb_bt_compare_tuples(c->bt, c->prev, itup, true) >= 0)
        c->bad_order++;
    memcpy(c->prev, itup, IndexTupleSize(itup));
    c->have_prev = true;
}

/* Sort nrows random rows of cols at work_mem_kb; check what comes out. */
static void
run_case(const Col *cols, int ncols, int nrows, int work_mem_kb, bool packable)
{
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "case", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    BTIndexData *bt = make_index(cols, ncols);
    IndexSortConfig cfg = {.parent = cxt,
                           .work_mem_kb = work_mem_kb,
                           .temp_dir = temp_dir,
                           .heap_blocks = packable ? (BlockNumber)nrows : 0};
    IndexSort *s = tdb_index_sort_begin(bt, &cfg);
    Check c = {.bt = bt, .nrows = nrows};
    uint64 rng = tdb_test_seed() ^ (uint64)nrows;

    c.values = tdb_palloc(sizeof(*c.values) * (Size)nrows);
    c.isnull = tdb_palloc(sizeof(*c.isnull) * (Size)nrows);
    c.seen = tdb_palloc0(sizeof(bool) * (Size)nrows);
    c.prev = tdb_palloc(BLCKSZ);
    for (int i = 0; i < nrows; i++) {
        ItemPointerData tid;

        for (int k = 0; k < ncols; k++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            c.isnull[i][k] =
                mostly_null ? (rng >> 33) % 8 != 0 : (rng >> 33) % 13 == 0;
            c.values[i][k] =
                c.isnull[i][k] ? (Datum)0 : value_of(cols[k].type, rng >> 40);
        }
        /* rows in heap order: block i, so a TID names its row */
        ItemPointerSet(&tid, (BlockNumber)i, (OffsetNumber)(1 + i % 7));
        tdb_index_sort_put(s, c.values[i], c.isnull[i], &tid);
    }
    expect_int_eq(tdb_index_sort_count(s), nrows);
    tdb_index_sort_finish(s, check_emit, &c);
    expect_int_eq(c.emitted, nrows);
    expect_int_eq(c.dup_rows, 0);
    expect_int_eq(c.bad_bytes, 0);
    expect_int_eq(c.bad_order, 0);
    tdb_index_sort_end(s);
    /* the runs' files went with the sort */
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}

static const int16 DESC_NF = INDOPTION_DESC | INDOPTION_NULLS_FIRST;

/* Each kind of key, in memory and spilled (64 kB: runs of ~4,000 pairs
 * or ~1,000 tuples, merged six at a time, so in several passes). */
static void
run_both(const Col *cols, int ncols)
{
    for (int packable = 0; packable < 2; packable++) {
        run_case(cols, ncols, 3000, 65536, packable);
        run_case(cols, ncols, 40000, 64, packable);
        /* more NULLs than 64 kB holds */
        mostly_null = true;
        run_case(cols, ncols, 40000, 64, packable);
        mostly_null = false;
    }
}

TEST_BEGIN(test_pairs)
{
    static const Oid types[] = {INT2OID, INT4OID, INT8OID, OIDOID, DATEOID};
    static const int16 options[] = {0, INDOPTION_DESC, DESC_NF,
                                    INDOPTION_NULLS_FIRST};

    for (int t = 0; t < 5; t++)
        for (int o = 0; o < 4; o++) {
            Col c = {types[t], options[o]};

            run_both(&c, 1);
        }
}
TEST_END

TEST_BEGIN(test_tuples)
{
    static const Oid types[] = {TEXTOID, NUMERICOID, BOOLOID, INTERVALOID};

    for (int t = 0; t < 4; t++) {
        Col asc = {types[t], 0}, desc = {types[t], DESC_NF};

        run_both(&asc, 1);
        run_both(&desc, 1);
    }
}
TEST_END

TEST_BEGIN(test_two_columns)
{
    Col a[] = {{INT4OID, 0}, {TEXTOID, INDOPTION_DESC}};
    Col b[] = {{TEXTOID, DESC_NF}, {INT8OID, 0}};

    run_both(a, 2);
    run_both(b, 2);
}
TEST_END

int
main(int argc, char **argv)
{
    int rc;

    snprintf(temp_dir, sizeof(temp_dir), "/tmp/tdb-indexsort-test.%d",
             (int)getpid());
    rc = test_main(argc, argv, "executor_indexsort", TEST_CASE(test_pairs),
                   TEST_CASE(test_tuples), TEST_CASE(test_two_columns));
    rmdir(temp_dir);
    return rc;
}
