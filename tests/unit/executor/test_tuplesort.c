/*
 * test_tuplesort.c -- the work_mem-bounded sort (executor/tuplesort.c)
 * against a reference order computed with qsort: rows (int8 key with
 * NULLs and duplicates, an int4 tie-breaker, a text column) sorted in
 * memory, spilled to many runs at the smallest work_mem (several merges),
 * bounded (top-N), by a text key (abbreviated), descending with NULLS
 * FIRST; mark / restore in every reading state (in memory, one run on
 * disk, a merge frozen by the mark); the memory bound while loading; the
 * temporary files gone after the end, a reset and an error in a merge.
 */
#include "common/base.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "executor/tuplesort.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/tupdesc.h"
#include "tuple/varlena.h"
#include "types/builtins.h"

/* One generated row. */
typedef struct Row {
    int64 k;
    bool k_null;
    int32 id; /* unique: the tie-breaker */
    char text[24];
} Row;

static char temp_dir[64];

static TupleDesc
row_desc(void)
{
    TupleDesc desc = tdb_tupdesc_create(3);

    tdb_tupdesc_init_attr(desc, 0, "k", INT8OID, -1, 8, true, 'd', 'p');
    tdb_tupdesc_init_attr(desc, 1, "id", INT4OID, -1, 4, true, 'i', 'p');
    tdb_tupdesc_init_attr(desc, 2, "t", TEXTOID, -1, -1, false, 'i', 'x');
    tdb_tupdesc_finalize(desc);
    return desc;
}

static Row *
make_rows(int n, int64 domain, uint64 *seed)
{
    Row *rows = tdb_palloc(sizeof(Row) * (Size)n);

    for (int i = 0; i < n; i++) {
        uint64 r = tdb_test_rand(seed);

        rows[i].k = (int64)(r % (uint64)domain) - domain / 2;
        rows[i].k_null = r % 97 == 0;
        rows[i].id = i;
        /* text sharing long prefixes, so abbreviated keys tie */
        snprintf(rows[i].text, sizeof(rows[i].text), "prefix%03d-%08x",
                 (int)(r >> 40) % 7, (unsigned)(r >> 8));
    }
    return rows;
}

/* The order under test, for the reference sort. */
static bool by_text, descending;

static int
compare_rows(const void *pa, const void *pb)
{
    const Row *a = pa, *b = pb;
    int cmp;

    if (by_text) {
        cmp = strcmp(a->text, b->text);
        if (cmp != 0)
            return (cmp > 0) - (cmp < 0);
    } else if (a->k_null || b->k_null) {
        /* NULLs last ascending; first descending (the default) */
        if (a->k_null != b->k_null)
            return (a->k_null ? 1 : -1) * (descending ? -1 : 1);
    } else if (a->k != b->k)
        return (a->k < b->k ? -1 : 1) * (descending ? -1 : 1);
    return (a->id > b->id) - (a->id < b->id);
}

static void
store_row(TupleTableSlot *slot, const Row *row)
{
    Datum values[3];
    bool isnull[3] = {row->k_null, false, false};

    values[0] = Int64GetDatum(row->k);
    values[1] = Int32GetDatum(row->id);
    values[2] = PointerGetDatum(tdb_text_from_cstring(row->text));
    tdb_slot_clear(slot);
    memcpy(slot->tts_values, values, sizeof(values));
    memcpy(slot->tts_isnull, isnull, sizeof(isnull));
    tdb_slot_store_virtual(slot);
}

/* Put rows[0 .. n) through in, perform the sort, and sort rows the
 * reference way (qsort) for comparing. */
static void
sort_rows(Tuplesort *ts, TupleTableSlot *in, Row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        store_row(in, &rows[i]);
        tdb_tuplesort_put(ts, in);
    }
    tdb_tuplesort_perform(ts);
    qsort(rows, (size_t)n, sizeof(Row), compare_rows);
}

static SortKey keys[2];

static Tuplesort *
begin(TupleDesc desc, int work_mem_kb, MemoryContext parent)
{
    TuplesortConfig cfg = {
        .parent = parent, .work_mem_kb = work_mem_kb, .temp_dir = temp_dir};

    keys[0] = (SortKey){.col = by_text ? 3 : 1,
                        .support = tdb_type_support(by_text ? TEXTOID
                                                            : INT8OID),
                        .descending = descending,
                        .nulls_first = descending};
    keys[1] = (SortKey){.col = 2, .support = tdb_type_support(INT4OID)};
    return tdb_tuplesort_begin(desc, keys, 2, &cfg);
}

/* The id of the row a sorted slot holds. */
static int32
slot_id(TupleTableSlot *slot)
{
    bool isnull;

    return DatumGetInt32(tdb_slot_getattr(slot, 2, &isnull));
}

/* Sort n rows at work_mem_kb and compare with qsort; returns the stats. */
static void
sort_and_check(int n, int64 domain, int work_mem_kb, int64 bound,
               const char *expect_method)
{
    uint64 seed = tdb_test_seed();
    MemoryContext cxt = tdb_aset_create(tdb_top_mcxt, "test sort",
                                        ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    TupleDesc desc = row_desc();
    TupleTableSlot *in = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    Row *rows = make_rows(n, domain, &seed);
    Tuplesort *ts = begin(desc, work_mem_kb, cxt);
    TupleTableSlot *out;
    TuplesortStats stats;
    int64 got = 0, bad = 0, want = bound > 0 ? Min(bound, n) : n;

    tdb_tuplesort_set_bound(ts, bound);
    sort_rows(ts, in, rows, n);
    while ((out = tdb_tuplesort_next(ts)) != NULL && got < want) {
        if (slot_id(out) != rows[got].id)
            bad++;
        got++;
    }
    expect_int_eq(got, want);
    expect_int_eq(bad, 0);
    tdb_tuplesort_stats(ts, &stats);
    expect_str_eq(stats.method, expect_method);
    tdb_tuplesort_end(ts);
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_in_memory)
{
    by_text = descending = false;
    sort_and_check(0, 10, 4096, 0, "quicksort");
    sort_and_check(1, 10, 4096, 0, "quicksort");
    sort_and_check(20000, 100, 4096, 0, "quicksort");       /* duplicates */
    sort_and_check(20000, 1LL << 40, 4096, 0, "quicksort"); /* distinct */
    descending = true;
    sort_and_check(20000, 1000, 4096, 0, "quicksort");
    descending = false;
}
TEST_END

TEST_BEGIN(test_external)
{
    by_text = descending = false;
    /* ~60 bytes a row: about a thousand per run, two hundred runs, merge
     * order 6: several merges before the final one */
    sort_and_check(200000, 1000, 64, 0, "external merge");
    sort_and_check(200000, 1LL << 40, 64, 0, "external merge");
    descending = true;
    sort_and_check(100000, 50, 64, 0, "external merge");
    descending = false;
    /* a little over work_mem: one run on disk plus the rest */
    sort_and_check(3000, 1LL << 40, 64, 0, "external merge");
}
TEST_END

TEST_BEGIN(test_text_key)
{
    by_text = true;
    descending = false;
    sort_and_check(30000, 10, 4096, 0, "quicksort");
    sort_and_check(30000, 10, 64, 0, "external merge");
    by_text = false;
}
TEST_END

TEST_BEGIN(test_bounded)
{
    by_text = descending = false;
    sort_and_check(100000, 1000, 64, 10, "top-N heapsort");
    sort_and_check(100000, 1LL << 40, 64, 1, "top-N heapsort");
    /* fewer rows than twice the bound: a plain sort */
    sort_and_check(150, 1000, 64, 100, "quicksort");
    /* a bound too large for memory: spills like an unbounded sort */
    sort_and_check(100000, 1000, 64, 50000, "external merge");
}
TEST_END

/* Read 1/3 of the rows, mark, read 100, restore, and check the rows read
 * after the restore are those after the mark. */
static void
mark_restore_check(int n, int work_mem_kb, const char *expect_method)
{
    uint64 seed = tdb_test_seed();
    MemoryContext cxt = tdb_aset_create(tdb_top_mcxt, "test sort",
                                        ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    TupleDesc desc = row_desc();
    TupleTableSlot *in = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    Row *rows = make_rows(n, 1LL << 40, &seed);
    Tuplesort *ts;
    TupleTableSlot *out;
    TuplesortStats stats;
    int64 pos = 0, bad = 0;
    int32 marked_id;

    by_text = descending = false;
    ts = begin(desc, work_mem_kb, cxt);
    sort_rows(ts, in, rows, n);
    tdb_tuplesort_stats(ts, &stats);
    expect_str_eq(stats.method, expect_method);
    for (; pos < n / 3; pos++)
        if (slot_id(tdb_tuplesort_next(ts)) != rows[pos].id)
            bad++;
    tdb_tuplesort_mark(ts);
    /* the row returned before the mark is still in the slot */
    out = tdb_tuplesort_next(ts);
    marked_id = slot_id(out);
    expect_int_eq(marked_id, rows[pos].id);
    for (int i = 0; i < 99; i++)
        (void)tdb_tuplesort_next(ts);
    tdb_tuplesort_restore(ts);
    while ((out = tdb_tuplesort_next(ts)) != NULL) {
        if (pos >= n || slot_id(out) != rows[pos].id)
            bad++;
        pos++;
    }
    expect_int_eq(pos, n);
    expect_int_eq(bad, 0);
    /* mark at the end, restore: still the end */
    tdb_tuplesort_mark(ts);
    tdb_tuplesort_restore(ts);
    expect_true(tdb_tuplesort_next(ts) == NULL);
    tdb_tuplesort_end(ts);
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_mark_restore)
{
    mark_restore_check(5000, 4096, "quicksort");
    mark_restore_check(2000, 64, "external merge");
    mark_restore_check(100000, 64, "external merge");
}
TEST_END

/* Memory allocated under the sort while loading stays within work_mem
 * plus the stated bound (one row-context block, the context headers). */
TEST_BEGIN(test_memory_bound)
{
#ifdef MEMORY_CONTEXT_CHECKING
    test_skip("checking builds give Bump chunks headers the sort does not "
              "count");
    return;
#endif
    uint64 seed = tdb_test_seed();
    MemoryContext cxt = tdb_aset_create(tdb_top_mcxt, "test sort",
                                        ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    TupleDesc desc = row_desc();
    TupleTableSlot *in = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    Row *rows = make_rows(300000, 1LL << 40, &seed);
    MemoryContext sortcxt = tdb_aset_create(cxt, "sort parent",
                                            ALLOCSET_DEFAULT_SIZES);
    Size most = 0;
    Tuplesort *ts;

    by_text = descending = false;
    for (int wm = 64; wm <= 4096; wm *= 8) {
        Size limit = (Size)wm * 1024;
        Size slack = TUPLESORT_SLACK(limit);

        most = 0;
        ts = begin(desc, wm, sortcxt);
        for (int i = 0; i < 300000; i++) {
            store_row(in, &rows[i]);
            tdb_tuplesort_put(ts, in);
            if (i % 97 == 0)
                most = Max(most, tdb_mcxt_mem_allocated(sortcxt, true));
        }
        tdb_tuplesort_perform(ts);
        most = Max(most, tdb_mcxt_mem_allocated(sortcxt, true));
        if (most > limit + slack)
            tdb_test_fail(__FILE__, __LINE__,
                          "work_mem %d kB: %zu bytes allocated", wm, most);
        tdb_tuplesort_end(ts);
    }
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}
TEST_END

static int interrupt_calls;

static void
raise_after_some(void *arg)
{
    (void)arg;
    if (++interrupt_calls == 20)
        ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                errmsg("canceling statement due to user request"));
}

/* An error while spilling or merging: deleting the owning context removes the files. */
TEST_BEGIN(test_error_removes_files)
{
    uint64 seed = tdb_test_seed();
    MemoryContext cxt = tdb_aset_create(tdb_top_mcxt, "test sort",
                                        ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    TupleDesc desc = row_desc();
    TupleTableSlot *in = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    Row *rows = make_rows(200000, 1000, &seed);
    TuplesortConfig cfg = {.parent = cxt,
                           .work_mem_kb = 64,
                           .temp_dir = temp_dir,
                           .check_interrupts = raise_after_some};
    Tuplesort *ts;
    volatile bool raised = false;

    by_text = descending = false;
    keys[0] = (SortKey){.col = 1, .support = tdb_type_support(INT8OID)};
    ts = tdb_tuplesort_begin(desc, keys, 1, &cfg);
    interrupt_calls = 0;
    TDB_TRY();
    {
        sort_rows(ts, in, rows, 200000);
        while (tdb_tuplesort_next(ts) != NULL)
            ;
    }
    TDB_CATCH();
    {
        raised = true;
        tdb_error_flush();
    }
    TDB_END_TRY();
    expect_true(raised);
    expect_true(tdb_test_count_files(temp_dir) > 0);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
}
TEST_END

int
main(int argc, char **argv)
{
    int rc;

    snprintf(temp_dir, sizeof(temp_dir), "/tmp/tdb-tuplesort-test.%d",
             (int)getpid());
    rc = test_main(argc, argv, "executor_tuplesort",
                       TEST_CASE(test_in_memory), TEST_CASE(test_external),
                       TEST_CASE(test_text_key), TEST_CASE(test_bounded),
                       TEST_CASE(test_mark_restore),
                       TEST_CASE(test_memory_bound),
                       TEST_CASE(test_error_removes_files));
    rmdir(temp_dir);
    return rc;
}
