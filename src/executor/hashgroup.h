/*
 * hashgroup.h -- grouping input rows by a hash table that spills: the
 * engine under HashAggregate and hashed SetOp (issue 8).
 *
 * A HashGrouping maps each input row's key columns to a group of the
 * compact tuple hash table (tuplehash.h): the key, stored compactly, and
 * `state_size` bytes of the consumer's per-group state in one headerless
 * allocation.  It owns the hashing of keys (the key types' hash
 * functions), the table's memory limit (work_mem x hash_mem_multiplier),
 * and spilling: once the table plus the consumer's own memory would pass
 * the limit, rows of groups already in the table still find them, but a
 * row that would create a group is written to a spill partition on disk
 * instead.  When the input ends, the consumer reads out the table's
 * groups; then each partition becomes a batch -- the table is emptied
 * and the partition's rows are read back as the input -- which may
 * itself spill, into partitions chosen by the next bits of the hash.
 * Every row's group is therefore complete in exactly one batch, and any
 * number of groups completes with bounded memory.
 *
 * The consumer's loop:
 *
 *     for (;;) {
 *         while ((row = tdb_hashgroup_next_input(hg, child)) != NULL) {
 *             state = tdb_hashgroup_lookup(hg, row, &is_new);
 *             if (state == NULL)
 *                 continue;                  (spilled to a partition)
 *             if (is_new) ... initialize the state ...
 *             ... advance the state with row ...
 *         }
 *         while ((state = tdb_hashgroup_next_group(hg, key_slot)) != NULL)
 *             ... output the group; key_slot holds its key columns ...
 *         ... free the consumer's per-group memory (extra_mcxt) ...
 *         if (!tdb_hashgroup_next_batch(hg))
 *             break;
 *     }
 *
 * A consumer whose rows may only join groups that other rows created
 * (hashed SetOp: only the first input's rows create groups) calls
 * tdb_hashgroup_lookup_existing for the rows that must not create one.
 * Spilled partitions keep the input's order, so rows that create groups
 * and come first in the input still come first within every batch.
 *
 * Memory: the table, the spill buffers and the read-back buffer live in
 * contexts below the caller's; the consumer names, in extra_mcxt, the
 * context holding its by-reference per-group memory (aggregate transition
 * values), which is counted against the limit too and which the consumer
 * resets between batches.  Temporary files are owned by a context of the
 * grouping, so the end of the statement, an error or a cancel removes
 * them.
 */
#ifndef TDB_EXECUTOR_HASHGROUP_H
#define TDB_EXECUTOR_HASHGROUP_H

#include "executor/executor.h"

typedef struct HashGrouping HashGrouping;

typedef struct HashGroupingSpec {
    TupleDesc input_desc; /* the rows fed in (and spilled) */
    int nkeys;
    const int *key_cols;           /* nkeys 1-based columns of input_desc */
    const OperDesc *const *eq_ops; /* nkeys equality operators */
    int deform_natts;              /* input columns the consumer reads per row
                                    * (deformed with the keys, in one go) */
    Size state_size;          /* bytes of per-group state, zeroed when new */
    double est_groups;        /* the planner's estimate of the groups
                               * (initial size, memory limit) */
    double est_input_rows;    /* and of the input rows: at most that many
                               * groups are left when the first batch
                               * spills (its partition count) */
    MemoryContext extra_mcxt; /* the consumer's per-group memory, counted
                               * against the limit; NULL if none */
    bool can_spill;           /* false: the table grows past the limit */
} HashGroupingSpec;

/* Set up in the current memory context (the executor's). */
HashGrouping *tdb_hashgroup_create(const HashGroupingSpec *spec,
                                   EState *estate);

/*
 * The next input row of the current batch: from child in the first
 * batch, from the batch's partition afterwards; NULL at the batch's end.
 * The row is valid until the next call.
 */
TupleTableSlot *tdb_hashgroup_next_input(HashGrouping *hg, PlanState *child);

/*
 * The group of row (which next_input returned): its state, zeroed when
 * *is_new; or NULL when the row went to a spill partition.
 */
void *tdb_hashgroup_lookup(HashGrouping *hg, TupleTableSlot *row, bool *is_new);

/*
 * The existing group of row (which next_input returned), never creating
 * one: its state; or NULL when the group is not in the table -- and then,
 * if the batch is spilling (the group may have been spilled), the row is
 * written to its spill partition to meet its group in a later batch;
 * otherwise the row has no group in this batch and is dropped.
 */
void *tdb_hashgroup_lookup_existing(HashGrouping *hg, TupleTableSlot *row);

/*
 * After the batch's input: the next group's state, or NULL when all were
 * returned.  key_slot (a virtual slot over the input descriptor) gets the
 * group's key in its key columns and NULL in the others; its by-reference
 * values point into the table (valid until the next batch).
 */
void *tdb_hashgroup_next_group(HashGrouping *hg, TupleTableSlot *key_slot);

/*
 * Empty the table and start the next spilled batch; false when none is
 * left (the grouping is finished).
 */
bool tdb_hashgroup_next_batch(HashGrouping *hg);

/* Back to the start (rescan): empty table, spill files removed. */
void tdb_hashgroup_reset(HashGrouping *hg);

/* EXPLAIN ANALYZE: batches used, peak memory (table + the consumer's
 * extra memory) and peak disk space, in kB rounded up. */
void tdb_hashgroup_stats(const HashGrouping *hg, int *batches,
                         int64 *mem_peak_kb, int64 *disk_kb);

/*
 * Does the type's "=" compare the datum's bytes?  Then hash tables
 * compare keys of the type bytewise (no call); the others need their
 * equality operator (see hashgroup.c).  The one list for hashed grouping
 * and hashed subplans.
 */
bool tdb_hashgroup_type_is_bytewise(Oid type);

#endif /* TDB_EXECUTOR_HASHGROUP_H */
