/*
 * tuplesort_merge.c -- a tuplesort's runs on temporary files and their
 * merging (the design is in tuplesort.c's header; the state in
 * tuplesort_int.h).
 *
 * Files: one temporary file per merge level.  A run is a byte range of
 * its level's file: rows [uint32 t_len][the minimal tuple from
 * t_infomask2 on].  Level 0 holds the runs written from memory; when
 * merge order runs of a level exist they are merged into one run of the
 * next level and, the level's file then holding no live run, it is
 * emptied (truncated) -- so each row is merged once per level, as in a
 * balanced merge, disk use stays near the data's size, and a sort keeps
 * a handful of files open however many runs it writes.
 *
 * Reading: every run being merged has a reader (storage/tempfile.h) with
 * a buffer of the merge's memory divided among the inputs, and one row;
 * a binary heap of the inputs orders their front rows, whose first keys
 * are normalized again as they are read.  At the end of loading, the
 * smallest runs are merged until the rest fit one pass (merge order),
 * and that last pass runs while the caller reads.
 *
 * Memory: the readers, their rows and the heap live in mergecxt, reset
 * after each merge.  Each level file has a write buffer of work_mem / 16
 * (1 kB to 32 kB).
 */
#include "common/base.h"

#include <stdlib.h>

#include "common/elog.h"
#include "executor/tuplesort_int.h"

static const char *
temp_dir(const Tuplesort *ts)
{
    return ts->cfg.temp_dir != NULL ? ts->cfg.temp_dir
                                    : tdb_tempfile_default_dir();
}

static void
note_disk(Tuplesort *ts, int64 delta)
{
    ts->disk_bytes = (uint64)((int64)ts->disk_bytes + delta);
    if (ts->disk_bytes > ts->max_disk)
        ts->max_disk = ts->disk_bytes;
}

/* Level level's file, created when first needed. */
static TempFile *
level_file(Tuplesort *ts, int level)
{
    if (level >= TS_MAX_LEVELS)
        elog(ERROR, "sort needs more than %d merge levels", TS_MAX_LEVELS);
    if (ts->stage == NULL) {
        ts->stage_size = Min(TS_WRITE_BUFFER,
                             Max(TDB_TEMPFILE_MIN_BUFFER, ts->limit / 16));
        ts->stage = tdb_mcxt_alloc(ts->sortcxt, ts->stage_size);
        ts->stage_len = 0;
        ts->file_buffers += ts->stage_size;
    }
    if (ts->level_files[level] == NULL) {
        /* writes arrive a staging buffer at a time, past the file's own
         * buffer: the smallest does */
        ts->level_files[level] = tdb_tempfile_create(
            ts->sortcxt, temp_dir(ts), TDB_TEMPFILE_MIN_BUFFER);
        ts->file_buffers += TDB_TEMPFILE_MIN_BUFFER;
    }
    /* created between loads: the next load counts the buffers */
    ts->limit = tdb_ts_load_limit(ts);
    return ts->level_files[level];
}

/* Hand the staged rows to file f. */
static void
flush_stage(Tuplesort *ts, TempFile *f)
{
    if (ts->stage_len > 0)
        tdb_tempfile_write(f, ts->stage, ts->stage_len);
    ts->stage_len = 0;
}

/* Append a row to the run being written to f: [uint32 t_len][the tuple
 * from t_infomask2 on]. */
static inline void
write_tuple(Tuplesort *ts, TempFile *f, MinimalTuple tuple)
{
    uint32 len = tuple->t_len;
    Size body = len - TS_RUN_SKIP;

    if (ts->stage_len + sizeof(len) + body > ts->stage_size) {
        flush_stage(ts, f);
        if (sizeof(len) + body > ts->stage_size) {
            tdb_tempfile_write(f, &len, sizeof(len));
            tdb_tempfile_write(f, (char *)tuple + TS_RUN_SKIP, body);
            return;
        }
    }
    memcpy(ts->stage + ts->stage_len, &len, sizeof(len));
    memcpy(ts->stage + ts->stage_len + sizeof(len),
           (char *)tuple + TS_RUN_SKIP, body);
    ts->stage_len += sizeof(len) + body;
}

static TDB_NORETURN void
run_corrupted(void)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("unexpected end of a sort run in a temporary file"));
}

/* Make buf hold at least len bytes (in cxt). */
static void
reserve_row(ReadBuffer *buf, Size len, MemoryContext cxt)
{
    Size space;

    if (len <= buf->space)
        return;
    space = Max(len, buf->space * 2);
    if (buf->tuple != NULL)
        tdb_pfree(buf->tuple);
    buf->tuple = tdb_mcxt_alloc_extended(cxt, space, MCXT_ALLOC_HUGE);
    buf->space = space;
}

/* Make chunk hold at least need unparsed bytes (need <= chunk_size);
 * false if the run ends first. */
static bool
refill(RunReader *rr, Size need)
{
    Size have = rr->len - rr->pos;

    memmove(rr->chunk, rr->chunk + rr->pos, have);
    rr->pos = 0;
    rr->len = have;
    rr->len += tdb_tempfile_reader_read(rr->reader, rr->chunk + have,
                                        rr->chunk_size - have);
    return rr->len >= need;
}

/* Read the run's next row into rr->row; false at the run's end. */
static bool
read_row(Tuplesort *ts, RunReader *rr)
{
    uint32 len;
    Size body, have;
    char *dest;

    if (rr->len - rr->pos < sizeof(len) && !refill(rr, sizeof(len))) {
        if (rr->len == rr->pos)
            return false;
        run_corrupted();
    }
    memcpy(&len, rr->chunk + rr->pos, sizeof(len));
    rr->pos += sizeof(len);
    if (len < SizeofMinimalTupleHeader)
        run_corrupted();
    body = len - TS_RUN_SKIP;
    reserve_row(&rr->row, len, ts->mergecxt);
    rr->row.tuple->t_len = len;
    dest = (char *)rr->row.tuple + TS_RUN_SKIP;
    if (rr->len - rr->pos < body && body <= rr->chunk_size)
        (void)refill(rr, body);
    have = Min(body, rr->len - rr->pos);
    memcpy(dest, rr->chunk + rr->pos, have);
    rr->pos += have;
    if (have < body &&
        tdb_tempfile_reader_read(rr->reader, dest + have, body - have) !=
            body - have)
        run_corrupted();
    return true;
}

/* The file position of a reader's next row. */
static uint64
reader_position(const RunReader *rr)
{
    return tdb_tempfile_reader_tell(rr->reader) - (rr->len - rr->pos);
}

static void
reader_seek(RunReader *rr, uint64 offset)
{
    tdb_tempfile_reader_seek(rr->reader, offset);
    rr->pos = rr->len = 0;
}

static Run *
append_run(Tuplesort *ts, int level)
{
    Run *run;

    if (ts->nruns == ts->runs_capacity) {
        int cap = Max(16, ts->runs_capacity * 2);

        ts->runs = ts->runs == NULL
                       ? tdb_mcxt_alloc(ts->sortcxt, sizeof(Run) * (Size)cap)
                       : tdb_repalloc(ts->runs, sizeof(Run) * (Size)cap);
        ts->runs_capacity = cap;
    }
    run = &ts->runs[ts->nruns++];
    run->level = level;
    run->start = run->end = tdb_tempfile_size(level_file(ts, level));
    run->ntuples = 0;
    ts->level_runs[level]++;
    return run;
}

/* A run was merged away: its level's file is emptied once none is left. */
static void
release_run(Tuplesort *ts, const Run *run)
{
    TempFile *f = ts->level_files[run->level];

    if (--ts->level_runs[run->level] == 0) {
        note_disk(ts, -(int64)tdb_tempfile_size(f));
        tdb_tempfile_truncate(f);
    }
}

/* Close a run being written. */
static void
end_run(Tuplesort *ts, Run *run)
{
    flush_stage(ts, ts->level_files[run->level]);
    run->end = tdb_tempfile_size(ts->level_files[run->level]);
    note_disk(ts, (int64)(run->end - run->start));
}

static void merge_full_levels(Tuplesort *ts);

void
tdb_ts_dump_run(Tuplesort *ts)
{
    Run *run;
    TempFile *f;

    tdb_ts_sort_load(ts);
    run = append_run(ts, 0);
    f = ts->level_files[0];
    for (int64 i = 0; i < ts->count; i++) {
        /* sorted, the rows are read in random memory order: fetch ahead */
        if (i + TS_PREFETCH_AHEAD < ts->count)
            __builtin_prefetch(
                SORT_ENTRY_TUPLE(&ts->entries[i + TS_PREFETCH_AHEAD]));
        write_tuple(ts, f, SORT_ENTRY_TUPLE(&ts->entries[i]));
        tdb_ts_check_interrupts(ts);
    }
    run = &ts->runs[ts->nruns - 1];
    run->ntuples = ts->count;
    end_run(ts, run);
    ts->runs_written++;
    if (ts->cfg.trace)
        tdb_ts_trace(ts, "finished writing run %d: %lld tuples, %llu bytes",
                     ts->runs_written, (long long)run->ntuples,
                     (unsigned long long)(run->end - run->start));
    tdb_mcxt_reset(ts->tuplecxt);
    ts->tuple_bytes = 0;
    ts->count = 0;
    merge_full_levels(ts);
}

/* ----------------------------------------------------------------------
 * Merging
 * ---------------------------------------------------------------------- */

static void
open_run(Tuplesort *ts, RunReader *rr, const Run *run, Size buffer)
{
    /* the chunk is the buffer: reads of a chunk bypass the reader's own */
    rr->reader = tdb_tempfile_reader_create(ts->level_files[run->level],
                                            run->start, run->end,
                                            TDB_TEMPFILE_MIN_BUFFER,
                                            ts->mergecxt);
    buffer = Max(buffer, TDB_TEMPFILE_MIN_BUFFER); /* a header must fit */
    rr->chunk = tdb_mcxt_alloc(ts->mergecxt, buffer);
    rr->chunk_size = buffer;
    rr->pos = rr->len = 0;
    rr->row.tuple = NULL;
    rr->row.space = 0;
}

static inline int
compare_inputs(Tuplesort *ts, int a, int b)
{
    return tdb_ts_compare(ts, &ts->inputs[a].entry, &ts->inputs[b].entry);
}

static void
sift_down(Tuplesort *ts, int i)
{
    int n = ts->heap_size;
    int *h = ts->heap;

    for (;;) {
        int l = 2 * i + 1, small = i;

        if (l < n && compare_inputs(ts, h[l], h[small]) < 0)
            small = l;
        if (l + 1 < n && compare_inputs(ts, h[l + 1], h[small]) < 0)
            small = l + 1;
        if (small == i)
            return;
        int t = h[i];
        h[i] = h[small];
        h[small] = t;
        i = small;
    }
}

/* Read input i's next row; false at the end of its run. */
static bool
advance_input(Tuplesort *ts, int i)
{
    RunReader *in = &ts->inputs[i];

    if (!read_row(ts, in))
        return false;
    tdb_ts_make_entry(ts, &in->entry, in->row.tuple);
    return true;
}

/* Open the merge of runs[0 .. n) with budget bytes of buffers. */
static void
begin_merge(Tuplesort *ts, int n, Size budget)
{
    Size share = budget / (Size)n;
    Size buffer = TDB_TEMPFILE_MIN_BUFFER;

    /* a power of two, so the allocation is what was counted */
    while (buffer * 2 <= Min(share, TS_MAX_READ_BUFFER))
        buffer *= 2;

    ts->inputs = tdb_mcxt_alloc_zero(ts->mergecxt, sizeof(RunReader) * n);
    ts->heap = tdb_mcxt_alloc(ts->mergecxt, sizeof(int) * n);
    ts->ninputs = n;
    ts->heap_size = 0;
    for (int i = 0; i < n; i++) {
        open_run(ts, &ts->inputs[i], &ts->runs[i], buffer);
        if (advance_input(ts, i))
            ts->heap[ts->heap_size++] = i;
    }
    for (int i = ts->heap_size / 2 - 1; i >= 0; i--)
        sift_down(ts, i);
    ts->last_input = -1;
}

/* The merge's next row (in its input's buffer), or NULL at the end. */
static MinimalTuple
merge_next(Tuplesort *ts)
{
    if (ts->last_input >= 0) {
        /* the row returned last is consumed: its input moves on */
        if (!advance_input(ts, ts->last_input))
            ts->heap[0] = ts->heap[--ts->heap_size];
        sift_down(ts, 0);
        ts->last_input = -1;
    }
    if (ts->heap_size == 0)
        return NULL;
    ts->last_input = ts->heap[0];
    return ts->inputs[ts->last_input].row.tuple;
}

/* Forget the merge's readers; release runs[0 .. n) and drop them from
 * the list. */
static void
end_merge(Tuplesort *ts, int n)
{
    tdb_mcxt_reset(ts->mergecxt);
    ts->inputs = NULL;
    ts->heap = NULL;
    ts->ninputs = ts->heap_size = 0;
    ts->last_input = -1;
    for (int i = 0; i < n; i++)
        release_run(ts, &ts->runs[i]);
    memmove(ts->runs, ts->runs + n, sizeof(Run) * (Size)(ts->nruns - n));
    ts->nruns -= n;
}

/* The highest level of runs[0 .. n), plus one: where their merge goes. */
static int
level_above(const Tuplesort *ts, int n)
{
    int level = 0;

    for (int i = 0; i < n; i++)
        level = Max(level, ts->runs[i].level + 1);
    return Min(level, TS_MAX_LEVELS - 1);
}

/* Write the rest of the merge of runs[0 .. n) as one new run; the merged
 * runs are released.  Returns the new run's index. */
static int
drain_merge(Tuplesort *ts, int n)
{
    int level = level_above(ts, n);
    Run *run = append_run(ts, level);
    TempFile *f = ts->level_files[level];
    MinimalTuple tuple;
    int64 ntuples = 0;

    while ((tuple = merge_next(ts)) != NULL) {
        write_tuple(ts, f, tuple);
        ntuples++;
        tdb_ts_check_interrupts(ts);
    }
    run = &ts->runs[ts->nruns - 1];
    run->ntuples = ntuples;
    end_run(ts, run);
    end_merge(ts, n);
    ts->merges++;
    if (ts->cfg.trace)
        tdb_ts_trace(ts, "finished %d-way merge step: %lld tuples", n,
                     (long long)ntuples);
    return ts->nruns - 1;
}

static void
merge_first_runs(Tuplesort *ts, int k, Size budget)
{
    begin_merge(ts, k, budget);
    (void)drain_merge(ts, k);
}

/* The bytes a merge may give its readers: work_mem less what the sort
 * holds already (the state, the entry array, the level files' write
 * buffers, the load's context). */
static Size
merge_budget(const Tuplesort *ts)
{
    Size total = (Size)Max(ts->cfg.work_mem_kb, 64) * 1024;
    Size used = tdb_mcxt_mem_allocated(ts->sortcxt, false);

    if (ts->tuplecxt != NULL)
        used += tdb_mcxt_mem_allocated(ts->tuplecxt, false);
    return total > used ? total - used : 0;
}

static int
merge_order(const Tuplesort *ts)
{
    Size order = ts->limit / TS_MERGE_BUFFER;

    return (int)Max(TS_MIN_MERGE_ORDER, Min(order, TS_MAX_MERGE_ORDER));
}

/*
 * While runs are being written: when merge order runs of one level
 * exist, merge them into one run of the next level (with the memory the
 * load's entry array leaves).
 */
static void
merge_full_levels(Tuplesort *ts)
{
    int order = merge_order(ts);

    for (int level = 0; level < TS_MAX_LEVELS - 1; level++) {
        int n = 0;

        if (ts->level_runs[level] < order)
            return;
        /* gather the level's runs at the front */
        for (int i = 0; i < ts->nruns; i++)
            if (ts->runs[i].level == level) {
                Run t = ts->runs[n];

                ts->runs[n++] = ts->runs[i];
                ts->runs[i] = t;
            }
        merge_first_runs(ts, n, merge_budget(ts));
    }
}

static int
compare_run_sizes(const void *a, const void *b)
{
    int64 x = ((const Run *)a)->ntuples, y = ((const Run *)b)->ntuples;

    return x < y ? -1 : x > y;
}

/* Read runs[i] alone (SORTED_FILE). */
static void
read_single_run(Tuplesort *ts, int i, Size buffer, bool rewindable)
{
    ts->sorted = tdb_mcxt_alloc_zero(ts->mergecxt, sizeof(RunReader));
    open_run(ts, ts->sorted, &ts->runs[i], buffer);
    ts->sorted_start = ts->runs[i].start;
    ts->rewindable = rewindable;
    ts->status = SORT_SORTED_FILE;
}

void
tdb_ts_merge_runs(Tuplesort *ts)
{
    int order = merge_order(ts);
    Size budget;

    /* the load's memory is no longer needed */
    tdb_mcxt_delete(ts->tuplecxt);
    ts->tuplecxt = NULL;
    tdb_pfree(ts->entries);
    ts->entries = NULL;
    ts->capacity = 0;
    budget = merge_budget(ts);
    while (ts->nruns > order) {
        /* just enough of the smallest runs that the rest fit one pass */
        qsort(ts->runs, (size_t)ts->nruns, sizeof(Run), compare_run_sizes);
        merge_first_runs(ts, Min(order, ts->nruns - order + 1), budget);
    }
    if (ts->cfg.trace)
        tdb_ts_trace(ts, "performsort done: %d runs, %d merge steps, "
                         "%d-way final merge",
                     ts->runs_written, ts->merges, ts->nruns);
    if (ts->nruns == 1) {
        read_single_run(ts, 0, Min(TS_MAX_READ_BUFFER, budget), true);
        ts->method = "external sort";
    } else {
        begin_merge(ts, ts->nruns, budget);
        ts->status = SORT_MERGING;
        ts->method = "external merge";
    }
    if (ts->cfg.trace)
        tdb_ts_trace(ts, "external sort ended, %llu disk blocks used",
                     (unsigned long long)((ts->max_disk + 8191) / 8192));
}

/* ----------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------- */

MinimalTuple
tdb_ts_next_from_disk(Tuplesort *ts)
{
    tdb_ts_check_interrupts(ts);
    if (ts->status == SORT_MERGING)
        return merge_next(ts);
    return read_row(ts, ts->sorted) ? ts->sorted->row.tuple : NULL;
}

/*
 * A merge being read is marked: write the rest of it as one run and read
 * that instead (the rows before the mark are done with).  The row the
 * caller holds is copied first: the inputs move on.
 */
static void
freeze_merge(Tuplesort *ts)
{
    int n = ts->nruns;
    int tail;

    if (ts->last_input >= 0) {
        MinimalTuple cur = ts->inputs[ts->last_input].row.tuple;

        reserve_row(&ts->held, cur->t_len, ts->sortcxt);
        memcpy(ts->held.tuple, cur, cur->t_len);
        tdb_slot_store_minimal_tuple(ts->out, ts->held.tuple, false);
    }
    tail = drain_merge(ts, n);
    read_single_run(ts, tail, Min(TS_MAX_READ_BUFFER, ts->limit), false);
}

void
tdb_ts_mark_on_disk(Tuplesort *ts)
{
    if (ts->status == SORT_MERGING)
        freeze_merge(ts);
    ts->mark_offset = reader_position(ts->sorted);
}

void
tdb_ts_restore_on_disk(Tuplesort *ts)
{
    if (ts->status != SORT_SORTED_FILE)
        elog(ERROR, "tuplesort restored without a mark");
    reader_seek(ts->sorted, ts->mark_offset);
}

bool
tdb_ts_rewind_on_disk(Tuplesort *ts)
{
    if (ts->status != SORT_SORTED_FILE || !ts->rewindable)
        return false; /* a merge on the fly, or a frozen tail */
    reader_seek(ts->sorted, ts->sorted_start);
    return true;
}

void
tdb_ts_drop_runs(Tuplesort *ts)
{
    tdb_mcxt_reset(ts->mergecxt);
    ts->inputs = NULL;
    ts->heap = NULL;
    ts->sorted = NULL;
    ts->ninputs = ts->heap_size = 0;
    ts->last_input = -1;
    /* the files stay open, empty, for the next sort (a rescan) */
    for (int level = 0; level < TS_MAX_LEVELS; level++) {
        if (ts->level_files[level] != NULL)
            tdb_tempfile_truncate(ts->level_files[level]);
        ts->level_runs[level] = 0;
    }
    ts->nruns = 0;
    ts->disk_bytes = 0;
    ts->stage_len = 0;
}
