/*
 * lmgr.c -- relation locks held to the end of the transaction (lmgr.h).
 *
 * The table is a fixed array of RelLockEntry inside the transaction
 * manager, protected by the manager's mutex (the same one that guards
 * the writer lock, so the deadlock check sees every wait at once).
 * Entries [0, locks_used) are scanned linearly: the number of locks held
 * at one time is small (sessions x relations per transaction), and a
 * scan of a few cache lines beats a hash table's upkeep at that size.
 *
 * A waiting exclusive request is itself an entry (granted = false), so
 * that share requests arriving later queue behind it instead of
 * starving it.  Whoever lets go of a lock broadcasts locks_released and
 * every waiter re-examines the table.
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "access/access_int.h"
#include "access/lmgr.h"
#include "common/elog.h"

static const char *
lock_mode_name(int mode)
{
    return mode == REL_LOCK_EXCLUSIVE ? "AccessExclusiveLock"
                                      : "AccessShareLock";
}

void
tdb_lmgr_init(TransactionManager *tm)
{
    pthread_condattr_t attr;

    tm->locks =
        tdb_mcxt_alloc_zero(tm->cxt, LOCK_TABLE_SIZE * sizeof(RelLockEntry));
    tm->locks_used = 0;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&tm->locks_released, &attr);
    pthread_condattr_destroy(&attr);
}

void
tdb_lmgr_destroy(TransactionManager *tm)
{
    pthread_cond_destroy(&tm->locks_released);
}

/* The strongest entry of xact on relid (granted or not), or NULL. */
static RelLockEntry *
find_own(TransactionManager *tm, const Transaction *xact, Oid relid)
{
    RelLockEntry *best = NULL;

    for (uint32 i = 0; i < tm->locks_used; i++) {
        RelLockEntry *e = &tm->locks[i];

        if (e->owner == xact && e->relid == relid &&
            (best == NULL || e->mode > best->mode))
            best = e;
    }
    return best;
}

static RelLockEntry *
alloc_entry(TransactionManager *tm)
{
    for (uint32 i = 0; i < tm->locks_used; i++)
        if (tm->locks[i].owner == NULL)
            return &tm->locks[i];
    if (tm->locks_used < LOCK_TABLE_SIZE)
        return &tm->locks[tm->locks_used++];
    return NULL;
}

static void
free_entry(TransactionManager *tm, RelLockEntry *e)
{
    e->owner = NULL;
    e->relid = InvalidOid;
    while (tm->locks_used > 0 && tm->locks[tm->locks_used - 1].owner == NULL)
        tm->locks_used--;
}

/*
 * Does entry e (someone else's) keep xact from taking relid in mode?
 * Granted locks conflict if either side is exclusive; a queued exclusive
 * request blocks share requests of sessions that hold nothing on relid.
 */
static bool
entry_blocks(const RelLockEntry *e, const Transaction *xact, Oid relid,
             RelLockMode mode, bool holds_some)
{
    if (e->owner == NULL || e->owner == xact || e->relid != relid)
        return false;
    if (e->granted)
        return mode == REL_LOCK_EXCLUSIVE || e->mode == REL_LOCK_EXCLUSIVE;
    return mode == REL_LOCK_SHARE && !holds_some;
}

bool
tdb_lmgr_waits_for(const TransactionManager *tm, const Transaction *blocker,
                   const Transaction *waiter)
{
    if (blocker == NULL || blocker == waiter)
        return false;
    if (blocker->waits_for_writer)
        return tm->writer == waiter;
    if (blocker->waits_for_relid == InvalidOid)
        return false;
    for (uint32 i = 0; i < tm->locks_used; i++) {
        const RelLockEntry *e = &tm->locks[i];

        if (e->owner == waiter && e->relid == blocker->waits_for_relid &&
            (blocker->waits_for_mode == REL_LOCK_EXCLUSIVE ||
             e->mode == REL_LOCK_EXCLUSIVE))
            return true;
    }
    return false;
}

TDB_NORETURN void
tdb_lmgr_report_deadlock(const char *waiting_for)
{
    ereport(ERROR, errcode(ERRCODE_T_R_DEADLOCK_DETECTED),
            errmsg("deadlock detected"),
            errdetail("This session waits for %s, held by a session that "
                      "waits for this one.",
                      waiting_for),
            errhint("See server log for query details."));
}

/* What a failed wait reports, after the mutex is released. */
typedef enum LockWaitFailure {
    LOCK_WAIT_OK,
    LOCK_WAIT_DEADLOCK,
    LOCK_WAIT_TIMEOUT,
    LOCK_WAIT_TABLE_FULL,
    LOCK_WAIT_CANCELED,
} LockWaitFailure;

/*
 * Grant relid in mode to xact now: upgrade its share entry, turn its
 * queued request into a grant, or take a new entry.  False if the table
 * is full.
 */
static bool
grant(TransactionManager *tm, Transaction *xact, RelLockEntry *own,
      RelLockEntry *queued, Oid relid, RelLockMode mode)
{
    if (queued != NULL) {
        queued->granted = true;
        if (own != NULL && own != queued) {
            free_entry(tm, own); /* the share entry it supersedes */
            xact->nlocks--;
        }
        return true;
    }
    if (own != NULL) {
        own->mode = (uint8)mode;
        return true;
    }
    own = alloc_entry(tm);
    if (own == NULL)
        return false;
    own->owner = xact;
    own->relid = relid;
    own->mode = (uint8)mode;
    own->granted = true;
    xact->nlocks++;
    return true;
}

/*
 * The waiting loop, with tm->lock held.  Returns with the lock granted
 * (LOCK_WAIT_OK) or the reason it was not; leaves no queued entry behind
 * on failure.
 */
static LockWaitFailure
acquire_locked(TransactionManager *tm, Transaction *xact, Oid relid,
               RelLockMode mode)
{
    RelLockEntry *queued = NULL;
    struct timespec deadline;
    LockWaitFailure result = LOCK_WAIT_OK;

    if (xact->lock_timeout_ms > 0)
        tdb_xact_deadline_after(&deadline, xact->lock_timeout_ms);
    for (;;) {
        RelLockEntry *own = find_own(tm, xact, relid);
        RelLockEntry *granted_own = own;
        Transaction *blocker = NULL;
        bool deadlock = false;

        if (own != NULL && !own->granted) {
            /* our queued entry; look for a granted share entry too */
            granted_own = NULL;
            for (uint32 i = 0; i < tm->locks_used; i++)
                if (tm->locks[i].owner == xact &&
                    tm->locks[i].relid == relid && tm->locks[i].granted)
                    granted_own = &tm->locks[i];
        }
        if (granted_own != NULL && granted_own->mode >= mode)
            break;
        for (uint32 i = 0; i < tm->locks_used; i++) {
            RelLockEntry *e = &tm->locks[i];

            if (!entry_blocks(e, xact, relid, mode, granted_own != NULL))
                continue;
            blocker = e->owner;
            if (tdb_lmgr_waits_for(tm, blocker, xact))
                deadlock = true;
        }
        if (blocker == NULL) {
            if (!grant(tm, xact, granted_own, queued, relid, mode))
                result = LOCK_WAIT_TABLE_FULL;
            queued = NULL;
            break;
        }
        if (deadlock) {
            result = LOCK_WAIT_DEADLOCK;
            break;
        }
        if (mode == REL_LOCK_EXCLUSIVE && queued == NULL) {
            queued = alloc_entry(tm);
            if (queued == NULL) {
                result = LOCK_WAIT_TABLE_FULL;
                break;
            }
            queued->owner = xact;
            queued->relid = relid;
            queued->mode = REL_LOCK_EXCLUSIVE;
            queued->granted = false;
            xact->nlocks++;
        }
        xact->waits_for_relid = relid;
        xact->waits_for_mode = (uint8)mode;
        {
            int rc = tdb_xact_lock_wait(
                xact, &tm->locks_released, &tm->lock,
                xact->lock_timeout_ms > 0 ? &deadline : NULL);

            if (rc == ETIMEDOUT) {
                result = LOCK_WAIT_TIMEOUT;
                break;
            }
            if (rc == ECANCELED) {
                result = LOCK_WAIT_CANCELED;
                break;
            }
        }
        xact->waits_for_relid = InvalidOid;
    }
    xact->waits_for_relid = InvalidOid;
    if (queued != NULL) {
        free_entry(tm, queued);
        xact->nlocks--;
        pthread_cond_broadcast(&tm->locks_released);
    }
    return result;
}

void
tdb_lock_relation(Transaction *xact, Oid relid, RelLockMode mode)
{
    TransactionManager *tm = xact->tm;
    LockWaitFailure failure;

    tdb_xact_check_not_failed(xact);
    if (xact->state != XACT_STATE_IN_PROGRESS)
        elog(ERROR, "cannot lock relation %u outside a transaction", relid);
    if (mode == REL_LOCK_EXCLUSIVE && !TransactionIdIsValid(xact->xid))
        elog(ERROR,
             "an exclusive lock on relation %u needs a transaction ID",
             relid);

    pthread_mutex_lock(&tm->lock);
    failure = acquire_locked(tm, xact, relid, mode);
    pthread_mutex_unlock(&tm->lock);

    if (failure == LOCK_WAIT_DEADLOCK) {
        char what[64];

        snprintf(what, sizeof(what), "%s on relation %u",
                 lock_mode_name(mode), relid);
        tdb_lmgr_report_deadlock(what);
    }
    if (failure == LOCK_WAIT_CANCELED)
        tdb_xact_raise_canceled(xact);
    if (failure == LOCK_WAIT_TIMEOUT)
        ereport(ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                errmsg("canceling statement due to lock timeout"),
                errdetail("Waiting for %s on relation %u.",
                          lock_mode_name(mode), relid));
    if (failure == LOCK_WAIT_TABLE_FULL)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY),
                errmsg("out of shared memory"),
                errhint("The lock table holds %d relation locks in all.",
                        LOCK_TABLE_SIZE));
}

int
tdb_lock_relation_held(Transaction *xact, Oid relid)
{
    TransactionManager *tm = xact->tm;
    int mode = 0;

    if (xact->nlocks == 0)
        return 0;
    pthread_mutex_lock(&tm->lock);
    for (uint32 i = 0; i < tm->locks_used; i++) {
        const RelLockEntry *e = &tm->locks[i];

        if (e->owner == xact && e->relid == relid && e->granted &&
            e->mode > mode)
            mode = e->mode;
    }
    pthread_mutex_unlock(&tm->lock);
    return mode;
}

void
tdb_lmgr_release_all(Transaction *xact)
{
    TransactionManager *tm = xact->tm;

    if (xact->nlocks == 0)
        return;
    pthread_mutex_lock(&tm->lock);
    for (uint32 i = 0; i < tm->locks_used; i++)
        if (tm->locks[i].owner == xact)
            free_entry(tm, &tm->locks[i]);
    xact->nlocks = 0;
    pthread_cond_broadcast(&tm->locks_released);
    pthread_mutex_unlock(&tm->lock);
}
