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
 * comparisons per page filled.
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

BlockNumber
tdb_fsm_get_page(RelFileNumber rel, Size needed, BlockNumber nblocks)
{
    BlockNumber found = InvalidBlockNumber;
    FsmRelation *r;

    pthread_mutex_lock(&fsm_lock);
    r = find_rel(rel);
    if (r != NULL) {
        r->last_used = ++fsm_clock;
        for (uint32 i = 0; i < r->npages; i++) {
            if (r->pages[i].blkno >= nblocks) {
                /* ascending: this one and the rest are past the end */
                r->npages = i;
                break;
            }
            if (r->pages[i].avail >= needed) {
                found = r->pages[i].blkno;
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
            else
                r->pages[i].avail = (uint16)Min(avail, (Size)UINT16_MAX);
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
