/*
 * tuplesort_int.h -- the state shared by tuplesort.c (loading, sorting in
 * memory, the bounded heap, reading) and tuplesort_merge.c (runs on
 * temporary files and their merging).  Not for other files.
 */
#ifndef TDB_EXECUTOR_TUPLESORT_INT_H
#define TDB_EXECUTOR_TUPLESORT_INT_H

#include "common/base.h"
#include "executor/sortkey.h"
#include "executor/tuplesort.h"
#include "storage/tempfile.h"
#include "tuple/heaptuple.h"

#define TS_INITIAL_ENTRIES 256
/* Rows being written are staged in a buffer of this size (at most
 * work_mem / 16), handed to the run file in one write. */
#define TS_WRITE_BUFFER ((Size)64 * 1024)
/* work_mem per merge input when choosing the merge order. */
#define TS_MERGE_BUFFER ((Size)32 * 1024)
#define TS_MIN_MERGE_ORDER 6
#define TS_MAX_MERGE_ORDER 500
#define TS_MAX_READ_BUFFER ((Size)1024 * 1024)
/* Run files: one per merge level (order^32 runs will not happen). */
#define TS_MAX_LEVELS 32
#define TS_INTERRUPT_EVERY 4096
/* Sorted rows are visited in random memory order: prefetch this many
 * entries ahead. */
#define TS_PREFETCH_AHEAD 16

/* Bytes of a minimal tuple not written to runs: t_len and padding (the
 * length is written in front instead). */
#define TS_RUN_SKIP offsetof(MinimalTupleData, t_infomask2)

typedef enum SortStatus {
    SORT_LOADING,     /* rows in memory */
    SORT_BOUNDED,     /* rows in memory, the top-N heap */
    SORT_BUILDING,    /* runs on disk, the current load in memory */
    SORT_SORTED_MEM,  /* reading the sorted load */
    SORT_SORTED_FILE, /* reading one run */
    SORT_MERGING,     /* reading the final merge */
} SortStatus;

/* A sorted run: rows stored one after another in its level's file. */
typedef struct Run {
    int level;      /* 0: written from memory; n + 1: merged from level n */
    uint64 start;   /* byte range in the level's file */
    uint64 end;
    int64 ntuples;
} Run;

/* A row read back from a run, in a buffer that grows to the largest. */
typedef struct ReadBuffer {
    MinimalTuple tuple;
    Size space;
} ReadBuffer;

/* A run being read: bytes [pos, len) of chunk are read but not parsed
 * yet; the current row is copied out (aligned) into row. */
typedef struct RunReader {
    TempFileReader *reader;
    char *chunk;
    Size chunk_size;
    Size pos;
    Size len;
    ReadBuffer row;
    SortEntry entry; /* of row.tuple (merge inputs) */
} RunReader;

typedef struct Tuplesort {
    TupleDesc desc;
    const SortKey *keys;
    int nkeys;
    TuplesortConfig cfg;
    SortKeyNormalizer norm; /* first key's, or NULL */
    bool abbreviated;       /* norm is not exact */
    int key_int_len;        /* first key a by-value integer of this width
                             * at a cached offset (else 0) */
    int key_offset;         /* its offset in the data area */
    MemoryContext sortcxt;  /* all of the sort's memory, files included */
    MemoryContext tuplecxt; /* rows of the current load (created lazily) */
    MemoryContext mergecxt; /* readers of the merge under way, and its heap */
    SortStatus status;
    const char *method;     /* for EXPLAIN, set when sorted */

    /* the current load */
    SortEntry *entries;
    int64 count;
    int64 capacity;
    bool can_grow;
    Size limit;             /* work_mem in bytes, less buffers in use */
    Size tuple_bytes;       /* counted bytes of the load's rows */
    Size max_mem;           /* most counted at once */
    int64 total;            /* rows put */
    int64 bound;            /* 0: none */

    /* runs on disk */
    TempFile *level_files[TS_MAX_LEVELS]; /* created when first needed */
    int level_runs[TS_MAX_LEVELS];         /* live runs in each file */
    Size file_buffers;                     /* their buffers' and the
                                            * staging buffer's bytes */
    char *stage;            /* rows on their way to a run file */
    Size stage_len;
    Size stage_size;
    Run *runs;
    int nruns;
    int runs_capacity;
    int runs_written;
    int merges;
    uint64 disk_bytes;
    uint64 max_disk;

    /* reading */
    int64 read_pos;         /* SORTED_MEM: next entry */
    int64 mark_pos;
    RunReader *sorted;      /* SORTED_FILE: the one run */
    uint64 sorted_start;    /* its first byte */
    bool rewindable;        /* SORTED_FILE: the run holds every row */
    ReadBuffer held;        /* a merged row kept across freezing */
    uint64 mark_offset;
    RunReader *inputs;      /* MERGING (and merges while building) */
    int ninputs;
    int *heap;              /* input numbers, the smallest front row first */
    int heap_size;
    int last_input;         /* whose row was returned last; -1: none */
    int64 since_check;
    double began;           /* trace_sort: when the sort began (s) */
    TupleTableSlot *out;
} Tuplesort;

/* tuplesort.c */
/* trace_sort: a LOG line, with the seconds since the sort began. */
void tdb_ts_trace(Tuplesort *ts, const char *fmt, ...) TDB_PRINTF(2, 3);
int tdb_ts_compare(Tuplesort *ts, const SortEntry *a, const SortEntry *b);
void tdb_ts_make_entry(Tuplesort *ts, SortEntry *e, MinimalTuple tuple);
void tdb_ts_sort_load(Tuplesort *ts);
void tdb_ts_check_interrupts(Tuplesort *ts);
/* work_mem less the run files' buffers: what a load may count. */
Size tdb_ts_load_limit(const Tuplesort *ts);

/* tuplesort_merge.c */
/* Sort the load, write it as a run, empty the load (and merge full
 * levels). */
void tdb_ts_dump_run(Tuplesort *ts);
/* Every row is in runs: merge down to one pass, start reading. */
void tdb_ts_merge_runs(Tuplesort *ts);
/* The next row from a run being read (SORTED_FILE) or the final merge. */
MinimalTuple tdb_ts_next_from_disk(Tuplesort *ts);
void tdb_ts_mark_on_disk(Tuplesort *ts);
void tdb_ts_restore_on_disk(Tuplesort *ts);
bool tdb_ts_rewind_on_disk(Tuplesort *ts);
/* Close every run file (a reset). */
void tdb_ts_drop_runs(Tuplesort *ts);

#endif /* TDB_EXECUTOR_TUPLESORT_INT_H */
