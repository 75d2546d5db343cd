/*
 * buf_relation.c -- the buffer pool's registry of relations: the smgr
 * handles the pool reads and writes blocks through, each relation's
 * extension lock, and the fsyncs pending until the relation is flushed.
 * (PostgreSQL spreads this over smgr.c's per-backend table of handles,
 * the heavyweight relation extension lock and the checkpointer's queue
 * of fsync requests; one pool shared by threads keeps it in one place.)
 *
 *   rel_buckets[]   BufRelation entries by relation file number, chained
 *                   (BufRelation.next), under pool->rel_lock; doubled
 *                   when there are more entries than buckets, if memory
 *                   allows (else the chains just grow longer)
 *   BufRelation     up to BUF_REL_IDLE_FILES idle handles (each serves
 *                   every fork), which forks need an fsync, the extension
 *                   locks that serialize tdb_buf_extend per fork, and the
 *                   counters of the visibility-map-before-main-fork write
 *                   order (tdb_buf_mark_dirty_before_main)
 *
 * An SMgrRelation is single-threaded, so the pool keeps a few idle
 * handles per relation and a thread doing I/O checks one out under
 * rel_lock, uses it without any lock, and checks it back in (closing it
 * if BUF_REL_IDLE_FILES are idle already).  Each handle lives in a
 * top-level context of its own, so opening and closing one touches no
 * shared context.
 *
 * A relation's entry is made by its first I/O or extension and lives
 * until tdb_buf_drop_relation or shutdown.  A handle checked back in
 * after a write or an extension flags the fork it wrote needs_sync; flushing
 * the relation (tdb_buf_flush_relation, at commit) or the pool
 * (tdb_buf_flush_all) writes the dirty buffers and then fsyncs each
 * flagged relation once (tdb_buf_sync_relations), instead of an fsync
 * per write.
 *
 * rel_lock is a leaf lock, held for lookups and flag updates only, never
 * across an smgr call or a context creation; entries are allocated from
 * and freed into the pool's context under it (contexts are not
 * thread-safe).  A new entry that finds no memory raises "out of
 * memory" from the I/O that needed it.
 *
 * Nothing here is on the pin or lookup path: bufmgr.c calls in once per
 * block it reads or writes (once per preadv when it reads ahead), per
 * extension, and per relation when it flushes or drops one.
 *
 * Entry points (buf_internals.h, for bufmgr.c): tdb_buf_relfile_op,
 * tdb_buf_relfile_readv, tdb_buf_relfile_truncate, tdb_buf_rel_entry,
 * tdb_buf_sync_relations, tdb_buf_rel_ordered_mark/_needed/_done,
 * tdb_buf_rel_init, tdb_buf_rel_forget, tdb_buf_rel_free_all.
 */
#include "common/base.h"

#include "common/elog.h"
#include "storage/buf_internals.h"

/* Relation hash buckets at first (doubled as relations are added). */
#define INITIAL_REL_BUCKETS 64

/* ----------------------------------------------------------------------
 * The registry: entries by relation file number, under rel_lock
 * ---------------------------------------------------------------------- */

static inline uint32
rel_bucket(RelFileNumber rel)
{
    return (rel * 0x9E3779B1u) & (tdb_buf_pool->rel_nbuckets - 1);
}

/* The relation's entry, or NULL.  Caller holds rel_lock. */
static BufRelation *
rel_lookup_locked(RelFileNumber rel)
{
    BufRelation *entry = tdb_buf_pool->rel_buckets[rel_bucket(rel)];

    while (entry != NULL && entry->relnumber != rel)
        entry = entry->next;
    return entry;
}

/* Double the relation hash table if memory allows (rel_lock held). */
static void
rel_grow_locked(void)
{
    BufferPool *pool = tdb_buf_pool;
    uint32 old_n = pool->rel_nbuckets;
    BufRelation **old = pool->rel_buckets;
    BufRelation **buckets =
        tdb_mcxt_alloc_extended(pool->cxt, (Size)old_n * 2 * sizeof(*old),
                                MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);

    if (buckets == NULL)
        return; /* longer chains, but still correct */
    pool->rel_buckets = buckets;
    pool->rel_nbuckets = old_n * 2;
    for (uint32 i = 0; i < old_n; i++) {
        BufRelation *entry = old[i];

        while (entry != NULL) {
            BufRelation *next = entry->next;
            uint32 b = rel_bucket(entry->relnumber);

            entry->next = buckets[b];
            buckets[b] = entry;
            entry = next;
        }
    }
    tdb_pfree(old);
}

/* The relation's entry, created if needed (under rel_lock). */
static BufRelation *
rel_entry_locked(RelFileNumber rel)
{
    BufferPool *pool = tdb_buf_pool;
    BufRelation *entry = rel_lookup_locked(rel);
    uint32 b;
    int rc;

    if (entry != NULL)
        return entry;
    entry = tdb_mcxt_alloc_extended(pool->cxt, sizeof(BufRelation),
                                    MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);
    if (entry == NULL)
        return NULL;
    for (int fork = 0; fork <= MAX_FORKNUM; fork++)
        if ((rc = pthread_mutex_init(&entry->extension_lock[fork], NULL)) != 0)
            tdb_buf_pthread_failed("initialize a mutex", rc);
    entry->relnumber = rel;
    b = rel_bucket(rel);
    entry->next = pool->rel_buckets[b];
    pool->rel_buckets[b] = entry;
    if (++pool->rel_count > pool->rel_nbuckets)
        rel_grow_locked();
    return entry;
}

static TDB_NORETURN void
raise_rel_oom(void)
{
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
            errdetail("Failed on request of size %zu in memory context "
                      "\"BufferPool\".",
                      sizeof(BufRelation)));
}

/* The relation's entry, created if needed.  Stays valid until
 * tdb_buf_drop_relation(rel) or shutdown. */
BufRelation *
tdb_buf_rel_entry(RelFileNumber rel)
{
    BufRelation *entry;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_entry_locked(rel);
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
    if (entry == NULL)
        raise_rel_oom();
    return entry;
}

/* ----------------------------------------------------------------------
 * Handles: checked out for one smgr call, then back in
 * ---------------------------------------------------------------------- */

static BufRelFile *
relfile_open(RelFileNumber rel)
{
    MemoryContext cxt =
        tdb_aset_create(NULL, "BufferPoolFile", ALLOCSET_SMALL_SIZES);
    BufRelFile *volatile file = NULL;

    TDB_TRY();
    {
        BufRelFile *f = tdb_mcxt_alloc(cxt, sizeof(BufRelFile));

        f->cxt = cxt;
        f->smgr = tdb_smgr_open(cxt, tdb_buf_pool->datadir, rel);
        file = f;
    }
    TDB_CATCH();
    {
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return file;
}

static void
relfile_close(BufRelFile *file)
{
    tdb_mcxt_delete(file->cxt); /* closes the descriptors */
}

/* Check out a handle on rel (creating rel's entry if needed). */
static BufRelFile *
relfile_get(RelFileNumber rel)
{
    BufRelation *entry;
    BufRelFile *file = NULL;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_entry_locked(rel);
    if (entry != NULL && entry->nidle > 0)
        file = entry->idle[--entry->nidle];
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
    if (entry == NULL)
        raise_rel_oom();
    if (file == NULL)
        file = relfile_open(rel);
    return file;
}

/* Check a handle back in; wrote: it wrote blocks of fork that need an
 * fsync. */
static void
relfile_put(RelFileNumber rel, BufRelFile *file, bool wrote, ForkNumber fork)
{
    BufRelation *entry;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_lookup_locked(rel);
    if (entry != NULL) {
        if (wrote)
            entry->needs_sync |= (uint8)(1U << fork);
        if (entry->nidle < BUF_REL_IDLE_FILES) {
            entry->idle[entry->nidle++] = file;
            file = NULL;
        }
    }
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
    if (file != NULL)
        relfile_close(file);
}

/*
 * One smgr call on a fork of relation rel through a checked-out handle,
 * which is checked back in whether the call succeeds or raises.  Returns
 * the block count for RELFILE_NBLOCKS, else 0.
 */
BlockNumber
tdb_buf_relfile_op(RelFileNumber rel, ForkNumber fork, RelFileOp op,
                   BlockNumber blkno, void *page)
{
    BufRelFile *volatile file = relfile_get(rel);
    bool writes = op == RELFILE_WRITE || op == RELFILE_EXTEND;
    volatile BlockNumber result = 0;

    TDB_TRY();
    {
        switch (op) {
        case RELFILE_READ:
            tdb_smgr_read(file->smgr, fork, blkno, page);
            break;
        case RELFILE_WRITE:
            tdb_smgr_write(file->smgr, fork, blkno, page);
            break;
        case RELFILE_EXTEND:
            /* the first block of a fork other than the main one creates
             * it (the main fork exists from CREATE TABLE on) */
            if (fork != MAIN_FORKNUM && blkno == 0)
                tdb_smgr_create(file->smgr, fork, true);
            tdb_smgr_extend(file->smgr, fork, blkno, page);
            break;
        case RELFILE_NBLOCKS:
            if (fork != MAIN_FORKNUM && !tdb_smgr_exists(file->smgr, fork))
                result = 0;
            else
                result = tdb_smgr_nblocks(file->smgr, fork);
            break;
        case RELFILE_SYNC:
            tdb_smgr_immedsync(file->smgr, fork);
            break;
        }
    }
    TDB_CATCH();
    {
        relfile_put(rel, file, writes, fork);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    relfile_put(rel, file, writes, fork);
    return result;
}

void
tdb_buf_relfile_truncate(RelFileNumber rel, ForkNumber fork,
                         BlockNumber nblocks)
{
    BufRelFile *volatile file = relfile_get(rel);

    TDB_TRY();
    {
        if (tdb_smgr_exists(file->smgr, fork))
            tdb_smgr_truncate(file->smgr, fork, nblocks);
    }
    TDB_CATCH();
    {
        relfile_put(rel, file, true, fork);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    relfile_put(rel, file, true, fork);
}

/* tdb_buf_relfile_op for tdb_smgr_readv: the handle is checked back in
 * whether the call succeeds or raises. */
int
tdb_buf_relfile_readv(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
                      void *const *pages, int npages)
{
    BufRelFile *volatile file = relfile_get(rel);
    volatile int result = 0;

    TDB_TRY();
    {
        result = tdb_smgr_readv(file->smgr, fork, blkno, pages, npages);
    }
    TDB_CATCH();
    {
        relfile_put(rel, file, false, fork);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    relfile_put(rel, file, false, fork);
    return result;
}
/* ----------------------------------------------------------------------
 * Pending fsyncs
 * ---------------------------------------------------------------------- */

/* A fork to fsync, collected by tdb_buf_sync_relations. */
typedef struct SyncTodo {
    RelFileNumber rel;
    ForkNumber fork;
} SyncTodo;

/* Whether entry e's fork f is one tdb_buf_sync_relations should sync. */
static inline bool
sync_wanted(const BufRelation *e, int f, RelFileNumber rel, ForkNumber fork,
            bool all)
{
    return (e->needs_sync & (1U << f)) &&
           (all || (e->relnumber == rel &&
                    (fork == InvalidForkNumber || fork == (ForkNumber)f)));
}

/*
 * fsync the relation forks written since their last fsync: rel's (fork,
 * or all of them), or every one (all).  A fork whose fsync fails is
 * flagged again and the error raised.
 */
void
tdb_buf_sync_relations(RelFileNumber rel, ForkNumber fork, bool all)
{
    BufferPool *pool = tdb_buf_pool;
    SyncTodo *volatile todo;
    uint32 ntodo = 0, cap = 0;
    volatile uint32 count;
    volatile uint32 i = 0;

    /* Collect (and unflag) the forks to sync; an array of them in the
     * caller's context, as entries may go meanwhile. */
    buf_mutex_lock(&pool->rel_lock);
    for (uint32 b = 0; b < pool->rel_nbuckets; b++)
        for (BufRelation *e = pool->rel_buckets[b]; e != NULL; e = e->next)
            for (int f = 0; f <= MAX_FORKNUM; f++)
                if (sync_wanted(e, f, rel, fork, all))
                    cap++;
    buf_mutex_unlock(&pool->rel_lock);
    if (cap == 0)
        return;
    todo = tdb_palloc_array(SyncTodo, cap);
    buf_mutex_lock(&pool->rel_lock);
    for (uint32 b = 0; b < pool->rel_nbuckets; b++)
        for (BufRelation *e = pool->rel_buckets[b]; e != NULL; e = e->next)
            for (int f = 0; f <= MAX_FORKNUM; f++)
                if (sync_wanted(e, f, rel, fork, all) && ntodo < cap) {
                    e->needs_sync &= (uint8) ~(1U << f);
                    todo[ntodo].rel = e->relnumber;
                    todo[ntodo].fork = (ForkNumber)f;
                    ntodo++;
                }
    buf_mutex_unlock(&pool->rel_lock);

    count = ntodo;
    TDB_TRY();
    {
        for (; i < count; i++)
            tdb_buf_relfile_op(todo[i].rel, todo[i].fork, RELFILE_SYNC, 0,
                               NULL);
    }
    TDB_CATCH();
    {
        /* the failed one and those not reached are still unsynced */
        buf_mutex_lock(&pool->rel_lock);
        for (uint32 j = i; j < count; j++) {
            BufRelation *e = rel_lookup_locked(todo[j].rel);

            if (e != NULL)
                e->needs_sync |= (uint8)(1U << todo[j].fork);
        }
        buf_mutex_unlock(&pool->rel_lock);
        tdb_pfree(todo);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_pfree(todo);
}

/* ----------------------------------------------------------------------
 * Write order between a relation's visibility map and its main fork
 * ---------------------------------------------------------------------- */

void
tdb_buf_rel_ordered_mark(RelFileNumber rel)
{
    BufRelation *entry;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_entry_locked(rel);
    if (entry != NULL)
        entry->ordered_marks++;
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
    if (entry == NULL)
        raise_rel_oom();
}

bool
tdb_buf_rel_ordered_needed(RelFileNumber rel, uint64 *marks)
{
    BufRelation *entry;
    bool needed = false;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_lookup_locked(rel);
    if (entry != NULL && entry->ordered_marks != entry->ordered_durable) {
        *marks = entry->ordered_marks;
        needed = true;
    }
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
    return needed;
}

void
tdb_buf_rel_ordered_done(RelFileNumber rel, uint64 marks)
{
    BufRelation *entry;

    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    entry = rel_lookup_locked(rel);
    /* several writers may have made it durable at once: keep the most */
    if (entry != NULL && marks > entry->ordered_durable)
        entry->ordered_durable = marks;
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
}

/* ----------------------------------------------------------------------
 * Creating and freeing the registry, dropping a relation
 * ---------------------------------------------------------------------- */

/* An empty registry for pool, which is being created (allocated in its
 * context; raises out of memory).  rel_lock is initialized with the
 * pool's other locks (bufmgr.c, pool_init_locks). */
void
tdb_buf_rel_init(BufferPool *pool)
{
    pool->rel_nbuckets = INITIAL_REL_BUCKETS;
    pool->rel_buckets = tdb_mcxt_alloc_zero(
        pool->cxt, INITIAL_REL_BUCKETS * sizeof(BufRelation *));
}

/* Close the entry's idle handles and free it (unlinked already). */
static void
rel_entry_free(BufRelation *entry)
{
    for (int i = 0; i < entry->nidle; i++)
        relfile_close(entry->idle[i]);
    for (int fork = 0; fork <= MAX_FORKNUM; fork++)
        pthread_mutex_destroy(&entry->extension_lock[fork]);
    buf_mutex_lock(&tdb_buf_pool->rel_lock);
    tdb_pfree(entry);
    buf_mutex_unlock(&tdb_buf_pool->rel_lock);
}

/* Unlink rel's entry, if it has one, and free it with its idle handles
 * (tdb_buf_drop_relation, once no buffer holds a block of rel); an fsync
 * still pending for rel goes with it. */
void
tdb_buf_rel_forget(RelFileNumber rel)
{
    BufferPool *pool = tdb_buf_pool;
    BufRelation *entry, **link;

    buf_mutex_lock(&pool->rel_lock);
    link = &pool->rel_buckets[rel_bucket(rel)];
    while (*link != NULL && (*link)->relnumber != rel)
        link = &(*link)->next;
    entry = *link;
    if (entry != NULL) {
        *link = entry->next;
        pool->rel_count--;
    }
    buf_mutex_unlock(&pool->rel_lock);
    if (entry != NULL)
        rel_entry_free(entry);
}

/* Free every entry and close its idle handles, syncing nothing (the
 * pool is being freed: bufmgr.c, pool_free). */
void
tdb_buf_rel_free_all(void)
{
    BufferPool *pool = tdb_buf_pool;

    for (uint32 b = 0; b < pool->rel_nbuckets; b++) {
        BufRelation *entry = pool->rel_buckets[b];

        while (entry != NULL) {
            BufRelation *next = entry->next;

            rel_entry_free(entry);
            entry = next;
        }
    }
}
