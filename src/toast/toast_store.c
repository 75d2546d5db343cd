/*
 * toast_store.c -- the out-of-line chunk store (toast_store.h): writing a
 * value's bytes as chunk rows of a TOAST relation, reading them back
 * whole or in part, and deleting them.
 *
 * Direct addressing
 * -----------------
 * PostgreSQL finds a value's chunks through a unique btree on (chunk_id,
 * chunk_seq) and picks value ids with GetNewOidWithIndex.  tupledb has no
 * index access method yet, and a scan of the toast relation per fetch is
 * out of the question, so the value id says where the chunks are:
 *
 *     va_valueid = ((block << 3) | (offset - 1)) + 1      never 0
 *
 * names the row of chunk 0.  A page therefore holds at most 8 chunk rows
 * (offsets 1 .. 8), and block stays below 2^29 - 1 (54000 "toast relation
 * ... is full" beyond: a 4 TB toast relation).  The chunk_id column holds
 * the same id, so the rows are what PostgreSQL would store.
 *
 *   - A value of several chunks starts at offset 1 of a page, and its
 *     chunks fill 4 consecutive pages in order (every chunk but the last
 *     is TOAST_MAX_CHUNK_SIZE = 1996 bytes, a full row 2032 bytes):
 *
 *         chunk k  at  (first_block + k / 4, k % 4 + 1)
 *
 *     so a slice computes the pages it needs and reads only those.  The
 *     pages are the lowest run of ceil(nchunks / 4) consecutive pages
 *     VACUUM left completely empty (find_empty_run), else pages appended
 *     for the value.
 *   - A value of one chunk goes to a page the free space record offers
 *     with room and fewer than 8 line pointers (one in use before an
 *     empty one, so runs stay whole), else to the relation's last page
 *     on the same terms, else to a page appended.
 *
 * The rows are inserted by tdb_heap_insert_on_empty_pages (a run: each
 * page initialized afresh under its exclusive lock, rows at offsets
 * 1 .. 4 exactly), tdb_heap_insert_on_page (a single chunk on a recorded
 * page) or tdb_heap_insert_at_end (appending in order with a cap on rows
 * per page).  The id is taken from where chunk 0 actually landed: a hook
 * writes it into the page's copy of each row of the first batch under
 * the page's lock (HeapPlacedRowHook), so no guess can go stale between
 * choosing the place and filling it.  The store then checks that every
 * chunk is at the address the id implies (an internal error otherwise).
 *
 * Reusing space VACUUM freed
 * --------------------------
 * VACUUM (vacuum.c) hands the pages it found with room to the in-memory
 * free space record (freespace.h), marking those with no line pointer in
 * use as empty -- decided under the page's cleanup lock.  The record is a
 * hint, and the store never trusts it:
 *   - Only writer-lock holders add rows to a toast relation, and the
 *     store holds the writer lock from its start (there is one writer at
 *     a time); VACUUM runs beside it without that lock but only removes
 *     rows.  So a page seen empty under its lock by the store stays empty
 *     until the store itself fills it.  find_empty_run checks every page
 *     of a run under its lock before the first chunk is placed, and
 *     tdb_heap_insert_on_empty_pages checks again under the exclusive
 *     lock it fills the page under (a cleanup-locked page being pruned
 *     cannot be locked meanwhile, and pruning an empty page changes
 *     nothing).
 *   - A mark can be stale: a VACUUM that saw a page empty may record it
 *     only after this writer filled it (VACUUM replaces the record when
 *     its pass ends).  The check finds the rows; the page is reported to
 *     the record with its real room (tdb_fsm_record clears the mark) and
 *     the next run is tried.  Each filled page is reported the same way
 *     as it is filled, so the record stops offering it at once.  Runs
 *     are not taken out of the record while being checked: nobody else
 *     fills toast pages, so there is no one to hide them from.
 *   - Readers: a page is empty only when every chunk row on it is gone,
 *     i.e. VACUUM found each dead to every snapshot -- no row anyone can
 *     still read points to it (PostgreSQL's condition for reusing an
 *     OID, below).  Readers of live values never look at it.
 *   - A page VACUUM skipped (pinned) or never saw is simply not offered.
 *     All-zero pages (an extension a crash cut short) are not recorded;
 *     tdb_heap_insert_on_page initializes one if offered anyway.
 *   - Empty pages at the end are not truncated: every access compares
 *     the file's length with the committed one (pg_class.relpages, in
 *     rd_committed_blocks: tdb_heap_relation_nblocks), which VACUUM does
 *     not maintain; they are reused instead.
 *
 * Why this is sound:
 *   - The pointer format stays PostgreSQL's; only the meaning of the id
 *     differs.  Ids are unique among a relation's live values because two
 *     live rows never share a (block, offset).
 *   - Space is reused only once VACUUM removed the dead chunk rows (of
 *     aborted stores and deleted values).  A later value may then land
 *     where a removed one began and get its id -- exactly PostgreSQL's
 *     rule for reusing an OID: the chunks were dead to every snapshot, so
 *     no row anyone can still read points to them.  A value's chunks die
 *     together (one delete stamps them all).  A multi-chunk value's pages
 *     are consecutive: a run of pages checked empty, or pages appended --
 *     only writer-lock holders extend a toast relation or add rows to
 *     it, and VACUUM does neither.  When a btree arrives, ids may become
 *     ordinary OIDs again; fetching by address then remains for existing
 *     values.
 *   - Chunk rows are ordinary rows of the writing transaction (xmin, the
 *     current command id), so an aborted store's chunks are dead.  A
 *     delete stamps xmax like tdb_heap_delete.
 *
 * Reading applies no snapshot, like PostgreSQL's toast snapshot: the
 * caller took the pointer from a row its snapshot sees, and chunks go
 * away only when that row is dead to everyone.  Every chunk is checked
 * (it exists at its address, chunk_id, chunk_seq, size, a plain or short
 * varlena); anything else is ERRCODE_DATA_CORRUPTED with PostgreSQL's
 * messages, raised after the page's lock and pin are let go.
 *
 * Pages are read one at a time: pin, share lock, copy the chunk bytes
 * out, unlock.  A value longer than a quarter of the buffer pool is read
 * (and written) through a ring, as a sequential scan would be, and read
 * with the pool's read-ahead (tdb_buf_read_sequential).  Writing forms
 * and inserts STORE_BATCH_CHUNKS chunk rows at a time in a short-lived
 * context, so a 1 GB value needs about 130 kB besides its own bytes.
 */
#include "common/base.h"

#include "access/freespace.h"
#include "access/heapam.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"
#include "storage/page.h"
#include "toast/toast_store.h"
#include "tuple/heaptuple.h"

/* Chunk rows formed and inserted per call of tdb_heap_insert_at_end:
 * 16 full pages. */
#define STORE_BATCH_CHUNKS (16 * TOAST_CHUNKS_PER_PAGE)

/* The fixed layout of a chunk row's data: chunk_id at t_hoff, chunk_seq
 * 4 bytes later, chunk_data (int-aligned, so right after) 8 bytes later. */
#define CHUNK_ID_OFF 0
#define CHUNK_SEQ_OFF 4
#define CHUNK_DATA_OFF 8

static _Thread_local ToastStoreStats store_stats;

void
tdb_toast_store_stats(ToastStoreStats *out)
{
    *out = store_stats;
}

/* Number of chunks of a value of extsize stored bytes. */
static inline int32
chunk_count(Size extsize)
{
    return (int32)((extsize + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE);
}

/* Data bytes of chunk seq of a value of nchunks chunks. */
static inline int32
chunk_size(Size extsize, int32 seq, int32 nchunks)
{
    if (seq < nchunks - 1)
        return TOAST_MAX_CHUNK_SIZE;
    return (int32)(extsize - (Size)(nchunks - 1) * TOAST_MAX_CHUNK_SIZE);
}

/* Where chunk seq of a value is. */
static inline void
chunk_address(BlockNumber first_block, OffsetNumber first_offset, int32 nchunks,
              int32 seq, BlockNumber *block, OffsetNumber *offset)
{
    if (nchunks == 1) {
        *block = first_block;
        *offset = first_offset;
    } else {
        *block = first_block + (BlockNumber)(seq / TOAST_CHUNKS_PER_PAGE);
        *offset = (OffsetNumber)(seq % TOAST_CHUNKS_PER_PAGE + 1);
    }
}

/* The relation's row type must be (chunk_id oid, chunk_seq int4,
 * chunk_data int-aligned varlena): the layout the reader relies on
 * (CHUNK_*_OFF). */
static void
check_toast_desc(Relation rel)
{
    TupleDesc desc = rel->rd_att;

    if (desc->natts != 3 || desc->compact_attrs[0].attlen != 4 ||
        desc->compact_attrs[1].attlen != 4 ||
        desc->compact_attrs[2].attlen != -1 ||
        desc->compact_attrs[2].attalignby > 4)
        elog(ERROR, "relation \"%s\" is not a toast relation", rel->rd_name);
    /* chunk_data is PLAIN: always a 4-byte header, never a short one
     * (PostgreSQL's chunk format; the catalog describes columns with
     * their type's packability, bytea's) */
    desc->attrs[2].attpackable = false;
    desc->compact_attrs[2].attflags &= (uint8)~ATTR_PACKABLE;
}

/* ----------------------------------------------------------------------
 * Storing
 * ---------------------------------------------------------------------- */

/* A chunk row of value valueid: (valueid, seq, data[0 .. len)). */
static HeapTuple
form_chunk(Relation rel, Oid valueid, int32 seq, const char *data, Size len)
{
    varlena *chunk = tdb_palloc(VARHDRSZ + len);
    Datum values[3];
    bool isnull[3] = {false, false, false};

    SET_VARSIZE(chunk, VARHDRSZ + len);
    memcpy(VARDATA(chunk), data, len);
    values[0] = ObjectIdGetDatum(valueid);
    values[1] = Int32GetDatum(seq);
    values[2] = PointerGetDatum(chunk);
    return tdb_heap_form_tuple(rel->rd_att, values, isnull);
}

/*
 * The value id is the first chunk's address, known only once that row
 * is on its page: a single chunk may land on the last page at any free
 * offset up to 8 (VACUUM running beside the writer may have freed line
 * pointers there meanwhile), so the id is written into the page's copy
 * of each row of the first batch under the page's lock, as it lands.
 */
typedef struct ChunkPlacement {
    Oid valueid;      /* InvalidOid until the first chunk landed */
    bool bad_address; /* it landed where no id can name it */
} ChunkPlacement;

/* HeapPlacedRowHook for the first batch of a value's chunk rows. */
static void
set_chunk_id(HeapTupleHeader page_row, const ItemPointerData *tid, int index,
             void *arg)
{
    ChunkPlacement *placement = arg;

    if (index == 0) {
        BlockNumber block = ItemPointerGetBlockNumber(tid);
        OffsetNumber offset = ItemPointerGetOffsetNumber(tid);

        /* the writer lock and the caller's checks rule this out */
        if (block >= TOAST_MAX_BLOCK || offset > TOAST_MAX_ROWS_PER_PAGE) {
            placement->bad_address = true;
            return;
        }
        placement->valueid = tdb_toast_valueid_encode(block, offset);
    }
    memcpy((char *)page_row + page_row->t_hoff + CHUNK_ID_OFF,
           &placement->valueid, sizeof(Oid));
}

/*
 * A run of npages empty pages below nblocks for a multi-chunk value, or
 * InvalidBlockNumber: the lowest run the free space record offers whose
 * pages all prove empty -- no line pointer in use -- under their locks.
 * A page that does not (the record is a hint: VACUUM may have recorded
 * it empty just before this writer's last store filled it) is reported
 * to the record with its real room, which clears its empty mark, and
 * the search goes on; each failure clears a mark, so it ends.  Called
 * with the writer lock held: only VACUUM can change the pages after the
 * check, and VACUUM only removes rows, so they are still empty when
 * tdb_heap_insert_on_empty_pages fills them (it checks again).  A long
 * run is read through the store's ring (strategy, may be NULL).
 */
static BlockNumber
find_empty_run(Relation rel, uint32 npages, BlockNumber nblocks,
               BufferAccessStrategy strategy)
{
    RelFileNumber relfile = rel->rd_relfilenumber;

    for (;;) {
        BlockNumber first = tdb_fsm_find_empty_run(relfile, npages, nblocks);
        bool all_empty = true;

        if (first == InvalidBlockNumber)
            return InvalidBlockNumber;
        for (uint32 i = 0; i < npages && all_empty; i++) {
            Buffer buf = tdb_buf_read(relfile, first + i, strategy);
            Page page = tdb_buf_page(buf);
            OffsetNumber maxoff;

            tdb_buf_lock(buf, BUF_LOCK_SHARE);
            maxoff = tdb_page_get_max_offset(page);
            for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
                if (ItemIdIsUsed(tdb_page_get_item_id_const(page, off))) {
                    all_empty = false;
                    break;
                }
            if (!all_empty) {
                Size avail = tdb_page_get_heap_free_space(page);

                tdb_buf_unlock_release(buf);
                tdb_fsm_record(relfile, first + i, avail);
            } else
                tdb_buf_unlock_release(buf);
        }
        if (all_empty)
            return first;
    }
}

/*
 * Put the single chunk row tup on a page the free space record offers
 * with room for it and fewer than 8 rows (partly used pages before
 * empty ones, so runs stay whole); false if none takes it.  Each page
 * that does not take it leaves the record (or records less room), so
 * this ends.
 */
static bool
store_single_in_free_page(Relation rel, HeapTuple tup, BlockNumber nblocks,
                          Transaction *xact, ChunkPlacement *placement)
{
    for (;;) {
        BlockNumber blkno = tdb_fsm_get_page_sparing_empty(
            rel->rd_relfilenumber, MAXALIGN(tup->t_len), nblocks);

        if (blkno == InvalidBlockNumber)
            return false;
        if (tdb_heap_insert_on_page(rel, tup, blkno, TOAST_MAX_ROWS_PER_PAGE,
                                    xact, set_chunk_id, placement))
            return true;
    }
}

TDB_NORETURN TDB_COLD TDB_NOINLINE static void
report_misplaced_chunk(Relation rel, Oid valueid, int32 seq,
                       const ItemPointerData *tid, BlockNumber block,
                       OffsetNumber offset)
{
    elog(ERROR,
         "chunk %d of toast value %u in %s went to (%u,%u) instead of "
         "(%u,%u)",
         seq, valueid, rel->rd_name, ItemPointerGetBlockNumber(tid),
         ItemPointerGetOffsetNumber(tid), block, offset);
}

void
tdb_toast_store_value(Relation toastrel, Transaction *xact, const char *data,
                      Size len, int32 rawsize, uint32 extinfo_method_bits,
                      varatt_external *out)
{
    MemoryContext batch_cxt, old_cxt;
    BufferAccessStrategy strategy = NULL;
    HeapTuple tuples[STORE_BATCH_CHUNKS];
    ChunkPlacement placement;
    BlockNumber first_block = InvalidBlockNumber;
    BlockNumber reuse_block = InvalidBlockNumber;
    BlockNumber nblocks;
    OffsetNumber first_offset = InvalidOffsetNumber;
    int32 nchunks;

    if (len == 0 || len > TOAST_MAX_VALUE_SIZE - VARHDRSZ)
        elog(ERROR, "invalid length %zu of a value to store out of line",
             (size_t)len);
    if (rawsize < VARHDRSZ || len > (Size)rawsize - VARHDRSZ ||
        (extinfo_method_bits & VARLENA_EXTSIZE_MASK) != 0)
        elog(ERROR,
             "invalid raw size %d or method bits %08x for a value of "
             "%zu bytes",
             rawsize, extinfo_method_bits, (size_t)len);
    check_toast_desc(toastrel);

    /* the writer lock first: from here on only this thread extends the
     * relation or adds rows to it */
    (void)tdb_xact_assign_xid(xact);
    nchunks = chunk_count(len);
    nblocks = tdb_heap_relation_nblocks(toastrel);
    if ((BlockNumber)nchunks / TOAST_CHUNKS_PER_PAGE >
        (BlockNumber)tdb_bufmgr_nbuffers() / 4)
        strategy = tdb_buf_strategy_create(BUF_STRATEGY_BULKWRITE);
    /* space VACUUM freed: a run of empty pages for several chunks (below
     * nblocks < TOAST_MAX_BLOCK, so nameable) */
    if (nchunks > 1)
        reuse_block =
            find_empty_run(toastrel,
                           (uint32)((nchunks + TOAST_CHUNKS_PER_PAGE - 1) /
                                    TOAST_CHUNKS_PER_PAGE),
                           nblocks, strategy);
    /* else the first chunk goes to the last block or a new one */
    if (reuse_block == InvalidBlockNumber && nblocks >= TOAST_MAX_BLOCK) {
        if (strategy != NULL)
            tdb_buf_strategy_free(strategy);
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("toast relation \"%s\" is full", toastrel->rd_name),
                errdetail("A value id can name blocks below %u only.",
                          TOAST_MAX_BLOCK));
    }
    batch_cxt = tdb_aset_create(tdb_current_mcxt, "toast store",
                                ALLOCSET_DEFAULT_SIZES);
    placement.valueid = InvalidOid;
    placement.bad_address = false;
    for (int32 seq = 0; seq < nchunks; seq += STORE_BATCH_CHUNKS) {
        int n = (int)Min(STORE_BATCH_CHUNKS, nchunks - seq);

        /* formed in batch_cxt, inserted with the caller's context current
         * (an error in the insert then leaves it current); the first
         * batch's chunk_id is filled in as its rows land */
        old_cxt = tdb_mcxt_switch_to(batch_cxt);
        for (int i = 0; i < n; i++)
            tuples[i] =
                form_chunk(toastrel, placement.valueid, seq + i,
                           data + (Size)(seq + i) * TOAST_MAX_CHUNK_SIZE,
                           (Size)chunk_size(len, seq + i, nchunks));
        tdb_mcxt_switch_to(old_cxt);
        if (reuse_block != InvalidBlockNumber)
            /* the run checked empty: chunk k at (reuse_block + k / 4,
             * k % 4 + 1); a batch starts a page (STORE_BATCH_CHUNKS is a
             * multiple of 4) */
            tdb_heap_insert_on_empty_pages(
                toastrel, tuples, n,
                reuse_block + (BlockNumber)(seq / TOAST_CHUNKS_PER_PAGE),
                TOAST_CHUNKS_PER_PAGE, xact, strategy,
                seq == 0 ? set_chunk_id : NULL, &placement);
        else if (nchunks > 1 ||
                 !store_single_in_free_page(toastrel, tuples[0], nblocks, xact,
                                            &placement))
            /* a value of several chunks starts a page of its own */
            tdb_heap_insert_at_end(toastrel, tuples, n,
                                   nchunks == 1 ? TOAST_MAX_ROWS_PER_PAGE
                                                : TOAST_CHUNKS_PER_PAGE,
                                   nchunks > 1, xact, strategy,
                                   seq == 0 ? set_chunk_id : NULL, &placement);
        if (seq == 0) {
            if (placement.bad_address)
                elog(ERROR, "first chunk of a value went to (%u,%u) in %s",
                     ItemPointerGetBlockNumber(&tuples[0]->t_self),
                     ItemPointerGetOffsetNumber(&tuples[0]->t_self),
                     toastrel->rd_name);
            tdb_toast_valueid_decode(placement.valueid, &first_block,
                                     &first_offset);
        }
        /* every chunk is where the value id says (4 a page from offset 1
         * of consecutive pages, new or emptied: nobody else extends the
         * relation or adds rows to it) */
        for (int i = 0; i < n; i++) {
            BlockNumber block;
            OffsetNumber offset;

            chunk_address(first_block, first_offset, nchunks, seq + i, &block,
                          &offset);
            if (ItemPointerGetBlockNumber(&tuples[i]->t_self) != block ||
                ItemPointerGetOffsetNumber(&tuples[i]->t_self) != offset)
                report_misplaced_chunk(toastrel, placement.valueid, seq + i,
                                       &tuples[i]->t_self, block, offset);
        }
        store_stats.chunks_written += (uint64)n;
        tdb_mcxt_reset(batch_cxt);
    }
    tdb_mcxt_delete(batch_cxt);
    if (strategy != NULL)
        tdb_buf_strategy_free(strategy);

    out->va_rawsize = rawsize;
    out->va_extinfo = (uint32)len | extinfo_method_bits;
    out->va_valueid = placement.valueid;
    out->va_toastrelid = toastrel->rd_id;
    store_stats.values_stored++;
}

/* ----------------------------------------------------------------------
 * Checking chunks
 * ---------------------------------------------------------------------- */

/* What is wrong with a chunk (CHUNK_OK: nothing). */
typedef enum ChunkProblemKind {
    CHUNK_OK,
    CHUNK_MISSING,     /* no row at its address */
    CHUNK_OTHER_VALUE, /* the row there is another value's */
    CHUNK_BAD_ROW,     /* the row is not a well-formed chunk row */
    CHUNK_TOASTED,     /* chunk_data is compressed or external */
    CHUNK_WRONG_SEQ,   /* chunk_seq is not the expected one */
    CHUNK_WRONG_SIZE,  /* chunk_data has the wrong length */
} ChunkProblemKind;

typedef struct ChunkProblem {
    ChunkProblemKind kind;
    int32 seq;         /* the chunk looked for */
    BlockNumber block; /* where */
    OffsetNumber offset;
    int32 found;    /* the chunk_seq, size or chunk_id found */
    int32 expected; /* the size expected (CHUNK_WRONG_SIZE) */
} ChunkProblem;

/*
 * Check the chunk row at offset of the share-locked page for chunk seq
 * of value valueid, expected_size data bytes.  Returns true and points
 * *data at the chunk's bytes in the page, or false with *problem filled
 * in (the caller unlocks, then reports).  The row's layout is checked
 * by hand -- no tdb_heap_tuple_verify, which would raise with the lock
 * held: an aligned item inside the page, three attributes, no nulls, an
 * aligned t_hoff, a 4-byte or short varlena inside the row.
 */
static bool
check_chunk(const PageData *page, BlockNumber block, OffsetNumber offset,
            Oid valueid, int32 seq, int32 expected_size, const char **data,
            ChunkProblem *problem)
{
    const HeapTupleHeaderData *tup;
    const ItemIdData *lp;
    const char *fields;
    unsigned lp_off, lp_len, hoff;
    uint32 chunk_id;
    int32 chunk_seq;
    Size size, hdrsz;

    problem->kind = CHUNK_OK;
    problem->seq = seq;
    problem->block = block;
    problem->offset = offset;
    if (offset > tdb_page_get_max_offset(page) ||
        !ItemIdIsNormal(lp = tdb_page_get_item_id_const(page, offset))) {
        problem->kind = CHUNK_MISSING;
        return false;
    }
    lp_off = ItemIdGetOffset(lp);
    lp_len = ItemIdGetLength(lp);
    if (lp_len < SizeofHeapTupleHeader || lp_off + lp_len > BLCKSZ ||
        lp_off < SizeOfPageHeaderData || lp_off != MAXALIGN(lp_off)) {
        problem->kind = CHUNK_BAD_ROW;
        return false;
    }
    tup = (const HeapTupleHeaderData *)((const char *)page + lp_off);
    hoff = tup->t_hoff;
    if (HeapTupleHeaderGetNatts(tup) != 3 ||
        (tup->t_infomask & HEAP_HASNULL) != 0 || hoff < SizeofHeapTupleHeader ||
        hoff != MAXALIGN(hoff) || hoff + CHUNK_DATA_OFF + 1 > lp_len) {
        problem->kind = CHUNK_BAD_ROW;
        return false;
    }
    fields = (const char *)tup + hoff;
    memcpy(&chunk_id, fields + CHUNK_ID_OFF, sizeof(chunk_id));
    memcpy(&chunk_seq, fields + CHUNK_SEQ_OFF, sizeof(chunk_seq));
    if (chunk_id != valueid) {
        problem->kind = CHUNK_OTHER_VALUE;
        problem->found = (int32)chunk_id;
        return false;
    }
    fields += CHUNK_DATA_OFF;
    if (VARATT_IS_4B_U(fields)) {
        if (hoff + CHUNK_DATA_OFF + VARHDRSZ > lp_len) {
            problem->kind = CHUNK_BAD_ROW;
            return false;
        }
        size = VARSIZE_4B(fields);
        hdrsz = VARHDRSZ;
    } else if (VARATT_IS_SHORT(fields)) {
        size = VARSIZE_1B(fields);
        hdrsz = VARHDRSZ_SHORT;
    } else {
        problem->kind = CHUNK_TOASTED;
        return false;
    }
    if (size < hdrsz || hoff + CHUNK_DATA_OFF + size > lp_len) {
        problem->kind = CHUNK_BAD_ROW;
        return false;
    }
    if (chunk_seq != seq) {
        problem->kind = CHUNK_WRONG_SEQ;
        problem->found = chunk_seq;
        return false;
    }
    if (size - hdrsz != (Size)expected_size) {
        problem->kind = CHUNK_WRONG_SIZE;
        problem->found = (int32)(size - hdrsz);
        problem->expected = expected_size;
        return false;
    }
    *data = fields + hdrsz;
    return true;
}


/*
 * Where chunk seq of a value is; false, with *problem saying "missing",
 * if that is past the relation's end (nblocks).
 */
static bool
existing_chunk_address(BlockNumber first_block, OffsetNumber first_offset,
                       int32 nchunks, int32 seq, BlockNumber nblocks,
                       BlockNumber *block, OffsetNumber *offset,
                       ChunkProblem *problem)
{
    chunk_address(first_block, first_offset, nchunks, seq, block, offset);
    if (*block < nblocks)
        return true;
    problem->kind = CHUNK_MISSING;
    problem->seq = seq;
    problem->block = *block;
    problem->offset = *offset;
    return false;
}

/* Raise XX001 for problem, found in value valueid of nchunks chunks. */
TDB_NORETURN TDB_COLD TDB_NOINLINE static void
report_chunk_problem(Relation rel, Oid valueid, int32 nchunks,
                     const ChunkProblem *p)
{
    switch (p->kind) {
    case CHUNK_MISSING:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("missing chunk number %d for toast value %u "
                       "in %s",
                       p->seq, valueid, rel->rd_name),
                errdetail("No row at (%u,%u).", p->block, p->offset));
        break;
    case CHUNK_OTHER_VALUE:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("missing chunk number %d for toast value %u "
                       "in %s",
                       p->seq, valueid, rel->rd_name),
                errdetail("The row at (%u,%u) belongs to toast value %u.",
                          p->block, p->offset, (Oid)p->found));
        break;
    case CHUNK_BAD_ROW:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("invalid chunk row at (%u,%u) for chunk "
                       "number %d of toast value %u in %s",
                       p->block, p->offset, p->seq, valueid, rel->rd_name));
        break;
    case CHUNK_TOASTED:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("found toasted toast chunk for toast value "
                       "%u in %s",
                       valueid, rel->rd_name));
        break;
    case CHUNK_WRONG_SEQ:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("unexpected chunk number %d (expected %d) "
                       "for toast value %u in %s",
                       p->found, p->seq, valueid, rel->rd_name));
        break;
    case CHUNK_WRONG_SIZE:
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("unexpected chunk size %d (expected %d) in "
                       "chunk %d of %d for toast value %u in %s",
                       p->found, p->expected, p->seq, nchunks, valueid,
                       rel->rd_name));
        break;
    case CHUNK_OK:
        break;
    }
    elog(ERROR, "unrecognized chunk problem: %d", (int)p->kind);
}

/*
 * Check a pointer handed to a fetch or delete: it belongs to rel, its
 * id is not 0, its sizes are possible, and a value of several chunks
 * starts at offset 1.  Sets *nchunks, *first_block, *first_offset.
 */
static void
check_pointer(Relation rel, const varatt_external *ptr, int32 *nchunks,
              BlockNumber *first_block, OffsetNumber *first_offset)
{
    Size extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);

    if (ptr->va_toastrelid != rel->rd_id)
        elog(ERROR, "toast value %u belongs to relation %u, not to %s (%u)",
             ptr->va_valueid, ptr->va_toastrelid, rel->rd_name, rel->rd_id);
    check_toast_desc(rel);
    *nchunks = chunk_count(extsize);
    if (ptr->va_valueid == InvalidOid || ptr->va_rawsize < VARHDRSZ ||
        extsize > (Size)ptr->va_rawsize - VARHDRSZ ||
        extsize + VARHDRSZ > TOAST_MAX_VALUE_SIZE)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("invalid external pointer to toast value %u "
                       "in %s: raw size %d, stored size %zu",
                       ptr->va_valueid, rel->rd_name, ptr->va_rawsize,
                       (size_t)extsize));
    tdb_toast_valueid_decode(ptr->va_valueid, first_block, first_offset);
    if (*nchunks > 1 && *first_offset != FirstOffsetNumber)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("invalid external pointer to toast value %u "
                       "in %s: %d chunks not starting a page",
                       ptr->va_valueid, rel->rd_name, *nchunks));
}

/* ----------------------------------------------------------------------
 * Fetching
 * ---------------------------------------------------------------------- */

/* Write a 4-byte compressed-inline header for len bytes (header
 * included). */
static inline void
set_varsize_compressed(void *ptr, Size len)
{
    uint32 h = ((uint32)len << 2) | 0x02;

    memcpy(ptr, &h, sizeof(h));
}

/*
 * Copy the stored bytes [sliceoffset, sliceoffset + slicelength) of the
 * value ptr names into dest (slicelength > 0, inside extsize), reading
 * only the chunks that hold them, page by page.  Raises XX001 for a
 * damaged chunk, holding nothing.
 */
static void
read_chunks(Relation rel, const varatt_external *ptr, Size sliceoffset,
            Size slicelength, char *dest)
{
    Size extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);
    Oid valueid = ptr->va_valueid;
    BlockNumber first_block, nblocks, end_block;
    OffsetNumber first_offset;
    BufferAccessStrategy strategy = NULL;
    int32 nchunks, startchunk, endchunk, seq;
    Size sliceend = sliceoffset + slicelength;
    Size copied = 0;
    ChunkProblem problem;

    check_pointer(rel, ptr, &nchunks, &first_block, &first_offset);
    Assert(slicelength > 0 && sliceend <= extsize);
    startchunk = (int32)(sliceoffset / TOAST_MAX_CHUNK_SIZE);
    endchunk = (int32)((sliceend - 1) / TOAST_MAX_CHUNK_SIZE);

    nblocks = tdb_heap_relation_nblocks(rel);
    {
        BlockNumber b;
        OffsetNumber o;

        chunk_address(first_block, first_offset, nchunks, endchunk, &b, &o);
        end_block = Min(b + 1, nblocks); /* read-ahead stops here */
        chunk_address(first_block, first_offset, nchunks, startchunk, &b, &o);
        if (end_block > b &&
            end_block - b > (BlockNumber)tdb_bufmgr_nbuffers() / 4)
            strategy = tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
    }

    seq = startchunk;
    while (seq <= endchunk) {
        BlockNumber block;
        OffsetNumber offset;
        Buffer buf;
        Page page;
        bool ok = true;

        if (!existing_chunk_address(first_block, first_offset, nchunks, seq,
                                    nblocks, &block, &offset, &problem)) {
            if (strategy != NULL)
                tdb_buf_strategy_free(strategy);
            report_chunk_problem(rel, valueid, nchunks, &problem);
        }
        buf = tdb_buf_read_sequential(rel->rd_relfilenumber, block, end_block,
                                      strategy);
        store_stats.pages_read++;
        page = tdb_buf_page(buf);
        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        /* every chunk of the slice on this page */
        do {
            int32 size = chunk_size(extsize, seq, nchunks);
            Size chunkstart = (Size)seq * TOAST_MAX_CHUNK_SIZE;
            Size from = 0, to = (Size)size; /* the part wanted */
            const char *data;

            if (!check_chunk(page, block, offset, valueid, seq, size, &data,
                             &problem)) {
                ok = false;
                break;
            }
            if (sliceoffset > chunkstart)
                from = sliceoffset - chunkstart;
            if (sliceend < chunkstart + (Size)size)
                to = sliceend - chunkstart;
            memcpy(dest + (chunkstart + from - sliceoffset), data + from,
                   to - from);
            copied += to - from;
            store_stats.chunks_read++;
            seq++;
            if (seq > endchunk)
                break;
            chunk_address(first_block, first_offset, nchunks, seq, &block,
                          &offset);
        } while (block == tdb_buf_block_number(buf));
        tdb_buf_unlock_release(buf);
        if (!ok) {
            if (strategy != NULL)
                tdb_buf_strategy_free(strategy);
            report_chunk_problem(rel, valueid, nchunks, &problem);
        }
    }
    if (strategy != NULL)
        tdb_buf_strategy_free(strategy);
    /* the chunk sizes were checked one by one; this is the sum */
    if (copied != slicelength)
        elog(ERROR, "read %zu bytes of toast value %u in %s instead of %zu",
             (size_t)copied, valueid, rel->rd_name, (size_t)slicelength);
}

varlena *
tdb_toast_fetch_value(Relation toastrel, const varatt_external *ptr)
{
    Size extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);
    int32 nchunks;
    BlockNumber first_block;
    OffsetNumber first_offset;
    varlena *result;

    check_pointer(toastrel, ptr, &nchunks, &first_block, &first_offset);
    result = tdb_palloc(extsize + VARHDRSZ);
    if (VARATT_EXTERNAL_IS_COMPRESSED(ptr))
        set_varsize_compressed(result, extsize + VARHDRSZ);
    else
        SET_VARSIZE(result, extsize + VARHDRSZ);
    if (extsize > 0)
        read_chunks(toastrel, ptr, 0, extsize, VARDATA(result));
    store_stats.values_fetched++;
    return result;
}

varlena *
tdb_toast_fetch_slice(Relation toastrel, const varatt_external *ptr,
                      int32 offset, int32 length)
{
    Size extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);
    bool compressed;
    int32 nchunks;
    BlockNumber first_block;
    OffsetNumber first_offset;
    Size start, end;
    varlena *result;

    check_pointer(toastrel, ptr, &nchunks, &first_block, &first_offset);
    compressed = VARATT_EXTERNAL_IS_COMPRESSED(ptr);
    if (offset < 0)
        offset = 0;
    end = length < 0 ? extsize : Min(extsize, (Size)offset + (Size)length);
    /* a compressed value: the prefix of the stored bytes */
    start = compressed ? 0 : Min((Size)offset, end);

    result = tdb_palloc(end - start + VARHDRSZ);
    if (compressed)
        set_varsize_compressed(result, end - start + VARHDRSZ);
    else
        SET_VARSIZE(result, end - start + VARHDRSZ);
    if (end > start)
        read_chunks(toastrel, ptr, start, end - start, VARDATA(result));
    store_stats.values_fetched++;
    return result;
}

/* ----------------------------------------------------------------------
 * Deleting
 * ---------------------------------------------------------------------- */

void
tdb_toast_delete_value(Relation toastrel, const varatt_external *ptr,
                       Transaction *xact)
{
    Size extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);
    Oid valueid = ptr->va_valueid;
    int32 nchunks, seq = 0;
    BlockNumber first_block, nblocks;
    OffsetNumber first_offset;
    ChunkProblem problem;

    check_pointer(toastrel, ptr, &nchunks, &first_block, &first_offset);
    /* the writer lock first: nothing changes the chunks between the
     * check of a page and the delete of its rows */
    (void)tdb_xact_assign_xid(xact);
    nblocks = tdb_heap_relation_nblocks(toastrel);
    while (seq < nchunks) {
        ItemPointerData tids[TOAST_CHUNKS_PER_PAGE];
        int ntids = 0;
        BlockNumber block;
        OffsetNumber offset;
        Buffer buf;
        bool ok = true;

        if (!existing_chunk_address(first_block, first_offset, nchunks, seq,
                                    nblocks, &block, &offset, &problem))
            report_chunk_problem(toastrel, valueid, nchunks, &problem);
        /* check this page's chunks under a share lock ... */
        buf = tdb_buf_read(toastrel->rd_relfilenumber, block, NULL);
        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        do {
            const char *data;

            if (!check_chunk(tdb_buf_page(buf), block, offset, valueid, seq,
                             chunk_size(extsize, seq, nchunks), &data,
                             &problem)) {
                ok = false;
                break;
            }
            ItemPointerSet(&tids[ntids++], block, offset);
            seq++;
            if (seq >= nchunks)
                break;
            chunk_address(first_block, first_offset, nchunks, seq, &block,
                          &offset);
        } while (block == tdb_buf_block_number(buf));
        tdb_buf_unlock_release(buf);
        if (!ok)
            report_chunk_problem(toastrel, valueid, nchunks, &problem);

        /* ... then stamp them as tdb_heap_delete does */
        for (int i = 0; i < ntids; i++) {
            TM_FailureData tmfd;

            switch (tdb_heap_delete(toastrel, &tids[i], xact, &tmfd)) {
            case TM_OK:
                break;
            case TM_SELF_MODIFIED:
                elog(ERROR, "tuple already updated by self");
                break;
            case TM_UPDATED:
                elog(ERROR, "tuple concurrently updated");
                break;
            case TM_DELETED:
                elog(ERROR, "tuple concurrently deleted");
                break;
            default:
                elog(ERROR, "unrecognized heap_delete status");
                break;
            }
            store_stats.chunks_deleted++;
        }
    }
}
