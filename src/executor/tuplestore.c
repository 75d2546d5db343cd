/*
 * tuplestore.c -- rows in arrival order under work_mem, spilled to a
 * temporary file beyond it, read by several readers (tuplestore.h).
 *
 * Layout: the rows numbered 0 .. nrows-1 in the order they were put are
 * split in two ranges,
 *
 *     [0, nfile)            in the temporary file, one after the other,
 *                           each as its minimal tuple (t_len first)
 *     [nfile, nrows)        in memory: mem[mem_start .. nmem), minimal
 *                           tuples in rows_cxt
 *
 * and the memory range is moved to the file whenever a put takes it
 * past the limit (flush_memory), after which rows_cxt is reset and the
 * next rows collect in memory again.  Rows are never moved back, so
 * memory holds the newest rows, which is where a reader that follows
 * the writer (a lazily computed CTE) is.
 *
 * Readers: a position is the row number and, for a row in the file, its
 * byte offset there (rows vary in length): invariant, a reader whose
 * row is below nfile has a valid offset.  A flush gives the readers
 * positioned on the rows it moves their offsets as it writes them.  A
 * read from the file seeks to the reader's offset (free inside the
 * file's buffered window) and reads the row into the reader's buffer.
 *
 * Memory accounting: each row's chunk (tdb_mcxt_chunk_space) plus the
 * pointer array, as PostgreSQL counts its tuplestore's memtuples.  The
 * limit is at least MIN_MEMORY, so a tiny work_mem does not flush after
 * every row.
 *
 * Errors: a flush writes row by row and records each row as moved only
 * once its write returned, so an error (disk full) in the middle leaves
 * a consistent store (some rows in the file, the rest still in memory,
 * the row being put included).
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "executor/tuplestore.h"
#include "storage/tempfile.h"
#include "tuple/heaptuple.h"

/* The least memory limit (PostgreSQL's smallest work_mem). */
#define MIN_MEMORY ((Size)64 * 1024)
/* The temporary file's buffer. */
#define FILE_BUFFER_SIZE 8192

typedef struct TsReader {
    int64 row;  /* the next row it reads */
    uint64 off; /* that row's byte offset in the file, if row < nfile */
    char *buf;  /* its copy of the last row read (copy or from the file) */
    Size buf_size;
} TsReader;

struct Tuplestore {
    MemoryContext cxt;      /* "Tuplestore": this struct, readers, file */
    MemoryContext rows_cxt; /* the rows in memory */
    Size max_bytes;
    const char *temp_dir; /* borrowed; NULL: the default directory */
    MinimalTuple *mem;    /* in cxt; rows nfile.. at mem[mem_start..] */
    int64 mem_start, nmem, mem_capacity;
    Size mem_bytes; /* counted as in the header */
    Size peak_bytes;
    TempFile *file; /* NULL until the first flush */
    int64 nfile;    /* rows in the file */
    uint64 file_bytes;
    int64 nrows;
    TsReader *readers;
    int nreaders, readers_capacity;
};

Tuplestore *
tdb_tuplestore_create(MemoryContext parent, Size max_bytes,
                      const char *temp_dir)
{
    MemoryContext cxt =
        tdb_aset_create(parent, "Tuplestore", ALLOCSET_DEFAULT_SIZES);
    Tuplestore *ts = tdb_mcxt_alloc_zero(cxt, sizeof(Tuplestore));

    ts->cxt = cxt;
    ts->rows_cxt =
        tdb_aset_create(cxt, "Tuplestore rows", ALLOCSET_DEFAULT_SIZES);
    ts->max_bytes = Max(max_bytes, MIN_MEMORY);
    ts->temp_dir = temp_dir;
    ts->mem_capacity = 64;
    ts->mem = tdb_mcxt_alloc(
        cxt, tdb_mcxt_array_size((Size)ts->mem_capacity, sizeof(MinimalTuple)));
    ts->mem_bytes = (Size)ts->mem_capacity * sizeof(MinimalTuple);
    ts->peak_bytes = ts->mem_bytes;
    return ts;
}

void
tdb_tuplestore_end(Tuplestore *ts)
{
    tdb_mcxt_delete(ts->cxt);
}

int
tdb_tuplestore_add_reader(Tuplestore *ts)
{
    TsReader *r;

    if (ts->nreaders == ts->readers_capacity) {
        int cap = Max(4, ts->readers_capacity * 2);
        TsReader *grown = tdb_mcxt_alloc_zero(
            ts->cxt, tdb_mcxt_array_size((Size)cap, sizeof(TsReader)));

        if (ts->nreaders > 0)
            memcpy(grown, ts->readers, sizeof(TsReader) * (Size)ts->nreaders);
        ts->readers = grown;
        ts->readers_capacity = cap;
    }
    r = &ts->readers[ts->nreaders];
    memset(r, 0, sizeof(TsReader));
    return ts->nreaders++;
}

/* ----------------------------------------------------------------------
 * Writing
 * ---------------------------------------------------------------------- */

/* Move the rows in memory to the end of the file and free them. */
static void
flush_memory(Tuplestore *ts)
{
    if (ts->file == NULL)
        ts->file = tdb_tempfile_create(
            ts->cxt,
            ts->temp_dir != NULL ? ts->temp_dir : tdb_tempfile_default_dir(),
            FILE_BUFFER_SIZE);
    while (ts->mem_start < ts->nmem) {
        MinimalTuple tup = ts->mem[ts->mem_start];

        /* readers positioned on this row learn where it is */
        for (int i = 0; i < ts->nreaders; i++)
            if (ts->readers[i].row == ts->nfile)
                ts->readers[i].off = ts->file_bytes;
        tdb_tempfile_write(ts->file, tup, tup->t_len);
        ts->file_bytes += tup->t_len;
        ts->nfile++;
        ts->mem_start++;
    }
    for (int i = 0; i < ts->nreaders; i++)
        if (ts->readers[i].row == ts->nfile)
            ts->readers[i].off = ts->file_bytes;
    tdb_mcxt_reset(ts->rows_cxt);
    ts->mem_start = ts->nmem = 0;
    ts->mem_bytes = (Size)ts->mem_capacity * sizeof(MinimalTuple);
}

void
tdb_tuplestore_put(Tuplestore *ts, TupleTableSlot *slot)
{
    MemoryContext old;
    MinimalTuple tup;
    Size space;

    if (ts->nmem == ts->mem_capacity) {
        int64 cap = ts->mem_capacity * 2;
        MinimalTuple *grown = tdb_mcxt_alloc(
            ts->cxt, tdb_mcxt_array_size((Size)cap, sizeof(MinimalTuple)));

        memcpy(grown, ts->mem, sizeof(MinimalTuple) * (Size)ts->nmem);
        tdb_pfree(ts->mem);
        ts->mem = grown;
        ts->mem_bytes += (Size)(cap - ts->mem_capacity) * sizeof(MinimalTuple);
        ts->mem_capacity = cap;
    }
    old = tdb_mcxt_switch_to(ts->rows_cxt);
    tup = tdb_slot_copy_minimal_tuple(slot, 0);
    tdb_mcxt_switch_to(old);
    space = tdb_mcxt_chunk_space(tup);
    ts->mem[ts->nmem++] = tup;
    ts->mem_bytes += space;
    ts->nrows++;
    if (ts->mem_bytes > ts->peak_bytes)
        ts->peak_bytes = ts->mem_bytes;
    if (ts->mem_bytes > ts->max_bytes)
        flush_memory(ts);
}

/* ----------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------- */

/* The reader's buffer, at least len bytes (contents not kept). */
static char *
reader_buffer(Tuplestore *ts, TsReader *r, Size len)
{
    if (r->buf_size < len) {
        Size size = Max(len, Max((Size)256, r->buf_size * 2));

        if (r->buf != NULL)
            tdb_pfree(r->buf);
        r->buf = tdb_mcxt_alloc(ts->cxt, size);
        r->buf_size = size;
    }
    return r->buf;
}

/* Row r->row from the file into the reader's buffer. */
static MinimalTuple
read_from_file(Tuplestore *ts, TsReader *r)
{
    uint32 len;
    char *buf;

    tdb_tempfile_seek(ts->file, r->off);
    if (tdb_tempfile_read(ts->file, &len, sizeof(len)) != sizeof(len) ||
        len < sizeof(len) || r->off + len > ts->file_bytes)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not read file \"%s\": bad row at byte %llu",
                       tdb_tempfile_path(ts->file),
                       (unsigned long long)r->off));
    buf = reader_buffer(ts, r, len);
    memcpy(buf, &len, sizeof(len));
    if (tdb_tempfile_read(ts->file, buf + sizeof(len), len - sizeof(len)) !=
        len - sizeof(len))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not read file \"%s\": bad row at byte %llu",
                       tdb_tempfile_path(ts->file),
                       (unsigned long long)r->off));
    r->off += len;
    return (MinimalTuple)buf;
}

bool
tdb_tuplestore_read(Tuplestore *ts, int reader, TupleTableSlot *slot, bool copy)
{
    TsReader *r = &ts->readers[reader];
    MinimalTuple tup;

    if (r->row >= ts->nrows) {
        tdb_slot_clear(slot);
        return false;
    }
    if (r->row < ts->nfile)
        tup = read_from_file(ts, r);
    else {
        tup = ts->mem[ts->mem_start + (r->row - ts->nfile)];
        if (copy) {
            char *buf = reader_buffer(ts, r, tup->t_len);

            memcpy(buf, tup, tup->t_len);
            tup = (MinimalTuple)buf;
        }
    }
    r->row++;
    tdb_slot_store_minimal_tuple(slot, tup, false);
    return true;
}

bool
tdb_tuplestore_at_end(const Tuplestore *ts, int reader)
{
    return ts->readers[reader].row >= ts->nrows;
}

void
tdb_tuplestore_rewind(Tuplestore *ts, int reader)
{
    ts->readers[reader].row = 0;
    ts->readers[reader].off = 0;
}

void
tdb_tuplestore_copy_position(Tuplestore *ts, int from, int to)
{
    ts->readers[to].row = ts->readers[from].row;
    ts->readers[to].off = ts->readers[from].off;
}

void
tdb_tuplestore_clear(Tuplestore *ts)
{
    tdb_mcxt_reset(ts->rows_cxt);
    ts->mem_start = ts->nmem = 0;
    ts->mem_bytes = (Size)ts->mem_capacity * sizeof(MinimalTuple);
    if (ts->file != NULL)
        tdb_tempfile_truncate(ts->file);
    ts->nfile = 0;
    ts->file_bytes = 0;
    ts->nrows = 0;
    for (int i = 0; i < ts->nreaders; i++)
        tdb_tuplestore_rewind(ts, i);
}

int64
tdb_tuplestore_rows(const Tuplestore *ts)
{
    return ts->nrows;
}

bool
tdb_tuplestore_spilled(const Tuplestore *ts)
{
    return ts->file != NULL;
}

uint64
tdb_tuplestore_disk_bytes(const Tuplestore *ts)
{
    return ts->file_bytes;
}

Size
tdb_tuplestore_peak_memory(const Tuplestore *ts)
{
    return ts->peak_bytes;
}
