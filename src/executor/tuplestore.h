/*
 * tuplestore.h -- rows kept in arrival order under a memory limit and
 * read back by any number of readers, each at its own position
 * (PostgreSQL's tuplestore, for what tupledb's nodes need: Materialize
 * and the CTE scans that share one WITH query's rows).
 *
 *     Tuplestore *ts = tdb_tuplestore_create(estate->query_mcxt,
 *                                            work_mem_bytes, temp_dir);
 *     int r = tdb_tuplestore_add_reader(ts);
 *     tdb_tuplestore_put(ts, slot);                  ... any time
 *     while (tdb_tuplestore_read(ts, r, out, true))  ... any time
 *         ...
 *     tdb_tuplestore_rewind(ts, r);                  read again
 *
 * Rows are appended, never changed.  A reader reads the rows in order
 * from its position and stops at the current end; rows put later are
 * read by its next calls, so writing and reading may interleave (a CTE
 * computed only as far as its readers ask).
 *
 * Memory: the rows in memory (their chunks and the pointer array) take
 * at most max_bytes (work_mem) between calls: when a put passes it, the
 * rows in memory, that one included, are appended to a temporary file
 * (storage/tempfile.h) and freed, and the store goes on collecting the
 * next rows in memory.  Readers behind the rows in
 * memory read from the file, the others from memory: a reader that
 * follows close behind the writer rarely touches the disk.
 *
 * Lifetime: everything, the temporary file included, lives in a context
 * of the store's own under the given parent, so deleting or resetting
 * the parent (the end of the statement, an ERROR, a cancel) frees the
 * memory and removes the file.  Errors: the temporary file's (disk full
 * is 53100), raised with nothing lost: after a put fails while moving
 * rows to the file, every row is still readable, the new one included.
 */
#ifndef TDB_EXECUTOR_TUPLESTORE_H
#define TDB_EXECUTOR_TUPLESTORE_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "tuple/slot.h"

typedef struct Tuplestore Tuplestore;

/*
 * A new, empty store under parent, holding at most max_bytes of rows in
 * memory (at least 64 kB is used); a spill file goes to temp_dir (NULL:
 * tdb_tempfile_default_dir()).  temp_dir is borrowed: it must outlive
 * the store.
 */
Tuplestore *tdb_tuplestore_create(MemoryContext parent, Size max_bytes,
                                  const char *temp_dir);

/* Free the memory and remove the file now (else the parent's end does). */
void tdb_tuplestore_end(Tuplestore *ts);

/* A new reader, at the first row; its number (0, 1, ...). */
int tdb_tuplestore_add_reader(Tuplestore *ts);

/* Append a copy of the slot's row (minimal tuple). */
void tdb_tuplestore_put(Tuplestore *ts, TupleTableSlot *slot);

/*
 * The row at reader's position into slot (a minimal slot of the rows'
 * shape), and move the reader past it; false, with the slot cleared and
 * the reader unmoved, when it is at the end.  With copy, the slot holds
 * the reader's own copy, valid until the reader's next read whatever
 * happens to the store meanwhile (readers sharing a store with a
 * writer); without, it may point into the store and is valid only until
 * the store's next put or read (a node that is the store's only user).
 */
bool tdb_tuplestore_read(Tuplestore *ts, int reader, TupleTableSlot *slot,
                         bool copy);

/* Is the reader at the end (the next read would return false)? */
bool tdb_tuplestore_at_end(const Tuplestore *ts, int reader);

/* Move the reader back to the first row. */
void tdb_tuplestore_rewind(Tuplestore *ts, int reader);

/* Move reader `to` to reader `from`'s position (mark / restore). */
void tdb_tuplestore_copy_position(Tuplestore *ts, int from, int to);

/* Forget every row (memory freed, file emptied); readers at the start. */
void tdb_tuplestore_clear(Tuplestore *ts);

/* Rows stored. */
int64 tdb_tuplestore_rows(const Tuplestore *ts);

/* Has any row gone to the temporary file?  Its size so far in bytes. */
bool tdb_tuplestore_spilled(const Tuplestore *ts);
uint64 tdb_tuplestore_disk_bytes(const Tuplestore *ts);

/* The most memory the rows took at once, in bytes (the limit's measure). */
Size tdb_tuplestore_peak_memory(const Tuplestore *ts);

#endif /* TDB_EXECUTOR_TUPLESTORE_H */
