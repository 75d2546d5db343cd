/*
 * freespace.c -- the in-memory free space record (freespace.h).
 *
 * A fixed table (about 1 MB of zeroed static memory, touched only for
 * the relations VACUUM records) under one process-wide mutex: nothing
 * is allocated, so nothing raises under the mutex.  Each relation's
 * pages are kept in ascending block order, so inserts fill the lowest
 * free pages first and the end of the relation last.  A lookup is a
 * linear search of one relation's entries; inserts ask only when the
 * page they were filling is full, so it costs at most a few thousand
 * comparisons per page filled.  A search for a run of empty pages is
 * one pass too: the entries are in block order, so a run is a stretch of
 * entries whose block numbers go up by one and which are all empty.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "access/freespace.h"

typedef struct FsmRelation {
    RelFileNumber rel; /* InvalidRelFileNumber: free slot */
    uint64 last_used;  /* for forgetting the least recently used */
    uint32 npages;
    FsmPage pages[FSM_MAX_PAGES];
} FsmRelation;

static pthread_mutex_t fsm_lock = PTHREAD_MUTEX_INITIALIZER;
static FsmRelation fsm_rels[FSM_MAX_RELATIONS]; /* under fsm_lock */
static uint64 fsm_clock;                        /* under fsm_lock */

/* rel's slot, or NULL (fsm_lock held). */
static FsmRelation *
find_rel(RelFileNumber rel)
{
    for (int i = 0; i < FSM_MAX_RELATIONS; i++)
        if (fsm_rels[i].npages > 0 && fsm_rels[i].rel == rel)
            return &fsm_rels[i];
    return NULL;
}

/* Remove entry i of r, keeping the order (fsm_lock held). */
static void
remove_entry(FsmRelation *r, uint32 i)
{
    memmove(&r->pages[i], &r->pages[i + 1],
            (r->npages - i - 1) * sizeof(FsmPage));
    r->npages--;
}

void
tdb_fsm_set_relation(RelFileNumber rel, const FsmPage *pages, uint32 n)
{
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r == NULL && n > 0) {
        /* a free slot, else the least recently used one */
        r = &fsm_rels[0];
        for (int i = 0; i < FSM_MAX_RELATIONS; i++) {
            if (fsm_rels[i].npages == 0) {
                r = &fsm_rels[i];
                break;
            }
            if (fsm_rels[i].last_used < r->last_used)
                r = &fsm_rels[i];
        }
    }
    if (r != NULL) {
        r->rel = rel;
        r->npages = 0;
        r->last_used = ++fsm_clock;
        for (uint32 i = 0; i < n && r->npages < FSM_MAX_PAGES; i++)
            if (pages[i].avail >= FSM_MIN_FREE)
                r->pages[r->npages++] = pages[i];
    }
    pthread_mutex_unlock(&fsm_lock);
}

/* Drop r's entries at or past nblocks (fsm_lock held). */
static void
cut_at(FsmRelation *r, BlockNumber nblocks)
{
    /* ascending: from the first one past the end on */
    for (uint32 i = 0; i < r->npages; i++)
        if (r->pages[i].blkno >= nblocks) {
            r->npages = i;
            break;
        }
}

/* The lowest page of rel with needed bytes of room, below nblocks; not
 * an empty one if spare_empty and another has the room. */
static BlockNumber
get_page(RelFileNumber rel, Size needed, BlockNumber nblocks, bool spare_empty)
{
    BlockNumber found = InvalidBlockNumber;
    BlockNumber found_empty = InvalidBlockNumber;
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL) {
        r->last_used = ++fsm_clock;
        cut_at(r, nblocks);
        for (uint32 i = 0; i < r->npages; i++) {
            if (r->pages[i].avail < needed)
                continue;
            if (spare_empty && r->pages[i].empty) {
                if (found_empty == InvalidBlockNumber)
                    found_empty = r->pages[i].blkno;
                continue;
            }
            found = r->pages[i].blkno;
            break;
        }
    }
    pthread_mutex_unlock(&fsm_lock);
    return found != InvalidBlockNumber ? found : found_empty;
}

BlockNumber
tdb_fsm_get_page(RelFileNumber rel, Size needed, BlockNumber nblocks)
{
    return get_page(rel, needed, nblocks, false);
}

BlockNumber
tdb_fsm_get_page_sparing_empty(RelFileNumber rel, Size needed,
                               BlockNumber nblocks)
{
    return get_page(rel, needed, nblocks, true);
}

BlockNumber
tdb_fsm_find_empty_run(RelFileNumber rel, uint32 npages, BlockNumber nblocks)
{
    BlockNumber found = InvalidBlockNumber;
    FsmRelation *r;

    if (npages == 0)
        return InvalidBlockNumber;
    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL) {
        uint32 run = 0; /* empty entries with consecutive blocks so far */

        r->last_used = ++fsm_clock;
        cut_at(r, nblocks);
        for (uint32 i = 0; i < r->npages; i++) {
            if (!r->pages[i].empty) {
                run = 0;
                continue;
            }
            if (run > 0 && r->pages[i].blkno != r->pages[i - 1].blkno + 1)
                run = 0;
            if (++run == npages) {
                found = r->pages[i].blkno - (npages - 1);
                break;
            }
        }
    }
    pthread_mutex_unlock(&fsm_lock);
    return found;
}

void
tdb_fsm_record(RelFileNumber rel, BlockNumber blkno, Size avail)
{
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL) {
        for (uint32 i = 0; i < r->npages; i++) {
            if (r->pages[i].blkno != blkno)
                continue;
            if (avail < FSM_MIN_FREE)
                remove_entry(r, i);
            else {
                r->pages[i].avail = (uint16)Min(avail, (Size)UINT16_MAX);
                r->pages[i].empty = false;
            }
            break;
        }
    }
    pthread_mutex_unlock(&fsm_lock);
}

void
tdb_fsm_forget(RelFileNumber rel)
{
    tdb_fsm_set_relation(rel, NULL, 0);
}

uint32
tdb_fsm_npages(RelFileNumber rel, uint64 *total_avail)
{
    uint32 n = 0;
    uint64 total = 0;
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL) {
        n = r->npages;
        for (uint32 i = 0; i < n; i++)
            total += r->pages[i].avail;
    }
    pthread_mutex_unlock(&fsm_lock);
    if (total_avail != NULL)
        *total_avail = total;
    return n;
}

uint32
tdb_fsm_nempty(RelFileNumber rel)
{
    uint32 n = 0;
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL)
        for (uint32 i = 0; i < r->npages; i++)
            n += r->pages[i].empty ? 1 : 0;
    pthread_mutex_unlock(&fsm_lock);
    return n;
}
