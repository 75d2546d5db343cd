/*
 * test_lmgr.c -- relation locks held to the end of the transaction
 * (lmgr.c) and end-of-transaction callbacks (xact.c).
 *
 * Sessions that must block run on their own threads ("Session" below: a
 * thread owning one Transaction that runs one request at a time for the
 * main thread).  The main thread sees that a session waits by reading its
 * waits_for_* fields under the manager's mutex, exactly what the deadlock
 * check reads, and then checks that it stays blocked for a while.  Every
 * session thread has a lock timeout of SESSION_LOCK_TIMEOUT_MS, so a lock
 * that is never granted shows as a 55P03 failure instead of a hang, and
 * every wait of the main thread is bounded.
 *
 *   test_share_locks_coexist    two readers; held modes; released at commit
 *   test_release_wakes_waiters  exclusive waits for a share holder and share
 *       for an exclusive holder, across statements, until the holder
 *       commits, aborts, fails, is destroyed or has its context deleted
 *   test_relock_and_upgrade     same / weaker mode is a no-op; share to
 *       exclusive in place, or after waiting (still holding share meanwhile)
 *   test_queueing               share requests line up behind a waiting
 *       exclusive request unless the session holds the relation already
 *   test_lock_timeout           55P03 for exclusive and share requests; the
 *       timed-out request leaves nothing held or queued, and share requests
 *       queued behind it are woken
 *   test_relation_deadlock      writer and reader each wait for a relation
 *       the other holds, in both orders: the second to wait gets 40P01
 *   test_writer_lock_deadlock   reader holding a relation waits for the
 *       writer lock while the writer waits for the relation, both orders
 *   test_lock_table_full        53200 at LOCK_TABLE_SIZE entries; upgrades
 *       in place still work; nothing leaked after abort
 *   test_lock_misuse            exclusive without xid, outside a
 *       transaction, in a FAILED one
 *   test_callback_order         registration order; PRE_COMMIT then COMMIT;
 *       ABORT on abort, fail and destroy; none on context deletion; what a
 *       callback sees at each event
 *   test_callback_pre_commit_raises  commit raises, the transaction is
 *       aborted: not committed, ABORT callbacks run, IDLE, locks free
 *   test_callback_commit_abort_raise WARNINGs; later callbacks still run;
 *       an error being handled (failed PRE_COMMIT, error recovery in a
 *       TDB_CATCH) survives a raising ABORT callback
 *   test_callback_registration  per transaction; only IN_PROGRESS
 */
#include "common/base.h"

#include <pthread.h>
#include <stdarg.h>
#include <unistd.h>

#include "access/access_int.h"
#include "access/lmgr.h"
#include "access/xact.h"
#include "access_test.h"

/* Relation ids; any value but InvalidOid does. */
#define REL_A 16384
#define REL_B 16385

/* Lock wait limit of session threads: far above any wait a passing test
 * needs, far below a hang. */
#define SESSION_LOCK_TIMEOUT_MS 20000

/* ----------------------------------------------------------------------
 * A data directory with its manager
 * ---------------------------------------------------------------------- */

typedef struct Env {
    DataDir *dd;
    TransactionManager *tm;
} Env;

static Env
env_open(void)
{
    Env env;

    env.dd = new_datadir();
    env.tm = tdb_xact_manager_open(env.dd, NULL);
    return env;
}

/* Entries in use in the lock table (granted or queued). */
static uint32
locks_used(TransactionManager *tm)
{
    uint32 n = 0;

    pthread_mutex_lock(&tm->lock);
    for (uint32 i = 0; i < tm->locks_used; i++)
        if (tm->locks[i].owner != NULL)
            n++;
    pthread_mutex_unlock(&tm->lock);
    return n;
}

/* Entries of xact on relid (granted or queued; relid InvalidOid: any). */
static uint32
entries_of(TransactionManager *tm, const Transaction *xact, Oid relid)
{
    uint32 n = 0;

    pthread_mutex_lock(&tm->lock);
    for (uint32 i = 0; i < tm->locks_used; i++)
        if (tm->locks[i].owner == xact &&
            (relid == InvalidOid || tm->locks[i].relid == relid))
            n++;
    pthread_mutex_unlock(&tm->lock);
    return n;
}

static bool
writer_is(TransactionManager *tm, const Transaction *xact)
{
    bool is;

    pthread_mutex_lock(&tm->lock);
    is = tm->writer == xact;
    pthread_mutex_unlock(&tm->lock);
    return is;
}

/* Every session is gone by now: nothing may be left in the table. */
static void
env_close(Env *env)
{
    expect_u64_eq(locks_used(env->tm), 0);
    expect_true(writer_is(env->tm, NULL));
    tdb_xact_manager_close(env->tm);
    tdb_datadir_close(env->dd);
}

/* Print which scenario of a loop failed (expect_* only give a line). */
static void
report_scenario(int failures_before, const char *scenario)
{
    if (tdb_test_state.nfailed_expects > failures_before)
        printf("    ... in scenario: %s\n", scenario);
}

/* ----------------------------------------------------------------------
 * Sessions on threads
 * ---------------------------------------------------------------------- */

typedef enum SessionOp {
    OP_START, /* internal: create the Transaction */
    OP_BEGIN,
    OP_ASSIGN_XID,
    OP_LOCK_SHARE,
    OP_LOCK_EXCLUSIVE,
    OP_COMMIT,
    OP_ABORT,
    OP_QUIT,
} SessionOp;

typedef struct Session {
    TransactionManager *tm;
    Transaction *xact; /* the thread's; the main thread reads it under
                        * tm->lock, or while the session is idle */
    pthread_t thread;
    pthread_mutex_t mutex; /* protects the request and result below */
    pthread_cond_t changed;
    SessionOp op; /* the request */
    Oid relid;
    uint32 nposted;   /* requests posted */
    uint32 nfinished; /* requests finished */
    int sqlerrcode;   /* result of the last request: 0, or its error */
    char message[ERRMSG_MAX];
    char detail[ERRMSG_MAX];
} Session;

/* Run one request on the session's thread.  May raise. */
static void
session_execute(Session *s, SessionOp op, Oid relid)
{
    switch (op) {
    case OP_START:
        s->xact = tdb_xact_create(s->tm, NULL);
        tdb_xact_set_lock_timeout(s->xact, SESSION_LOCK_TIMEOUT_MS);
        break;
    case OP_BEGIN:
        tdb_xact_begin(s->xact);
        break;
    case OP_ASSIGN_XID:
        (void)tdb_xact_assign_xid(s->xact);
        break;
    case OP_LOCK_SHARE:
        tdb_lock_relation(s->xact, relid, REL_LOCK_SHARE);
        break;
    case OP_LOCK_EXCLUSIVE:
        tdb_lock_relation(s->xact, relid, REL_LOCK_EXCLUSIVE);
        break;
    case OP_COMMIT:
        (void)tdb_xact_commit(s->xact);
        break;
    case OP_ABORT:
        tdb_xact_abort(s->xact);
        break;
    case OP_QUIT:
        tdb_xact_destroy(s->xact);
        s->xact = NULL;
        break;
    }
}

static void *
session_main(void *p)
{
    Session *s = p;
    bool quit = false;

    tdb_mcxt_thread_init();
    while (!quit) {
        SessionOp op;
        Oid relid;
        volatile int sqlerrcode = 0;

        pthread_mutex_lock(&s->mutex);
        while (s->nfinished == s->nposted)
            pthread_cond_wait(&s->changed, &s->mutex);
        op = s->op;
        relid = s->relid;
        pthread_mutex_unlock(&s->mutex);

        TDB_TRY();
        {
            session_execute(s, op, relid);
        }
        TDB_CATCH();
        {
            const ErrorData *e = tdb_error_current();

            sqlerrcode = e->sqlerrcode;
            snprintf(s->message, ERRMSG_MAX, "%s", e->message);
            snprintf(s->detail, ERRMSG_MAX, "%s", e->detail);
            tdb_error_flush();
        }
        TDB_END_TRY();

        pthread_mutex_lock(&s->mutex);
        s->sqlerrcode = sqlerrcode;
        s->nfinished++;
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->mutex);
        quit = op == OP_QUIT;
    }
    tdb_mcxt_thread_done();
    return NULL;
}

static bool
session_finished(Session *s)
{
    bool finished;

    pthread_mutex_lock(&s->mutex);
    finished = s->nfinished == s->nposted;
    pthread_mutex_unlock(&s->mutex);
    return finished;
}

/* Wait up to 30 s (more than the session's lock timeout) for the last
 * request to finish. */
static bool
session_wait(Session *s)
{
    struct timespec deadline;
    bool finished;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 30;
    pthread_mutex_lock(&s->mutex);
    while (s->nfinished != s->nposted &&
           pthread_cond_timedwait(&s->changed, &s->mutex, &deadline) == 0)
        ;
    finished = s->nfinished == s->nposted;
    pthread_mutex_unlock(&s->mutex);
    return finished;
}

/* Hand the session a request and return at once. */
static void
session_post(Session *s, SessionOp op, Oid relid)
{
    if (!session_finished(s)) {
        tdb_test_fail(__FILE__, __LINE__, "request %d posted while busy",
                      (int)op);
        (void)session_wait(s);
    }
    pthread_mutex_lock(&s->mutex);
    s->op = op;
    s->relid = relid;
    s->sqlerrcode = 0;
    s->message[0] = s->detail[0] = '\0';
    s->nposted++;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->mutex);
}

/* Run a request to its end: 0, the SQLSTATE it raised, or -1 if it did
 * not finish in time. */
static int
session_run(Session *s, SessionOp op, Oid relid)
{
    session_post(s, op, relid);
    if (!session_wait(s))
        return -1;
    return s->sqlerrcode;
}

/* Run a request that must succeed. */
#define expect_run_ok(s, op, relid)                                            \
    do {                                                                       \
        if (session_run((s), (op), (relid)) != 0)                              \
            tdb_test_fail(__FILE__, __LINE__, "%s failed: %s", #op,            \
                          (s)->message[0] ? (s)->message                       \
                                          : "did not finish in time");         \
    } while (0)

/* The request posted last must finish, successfully. */
#define expect_finished_ok(s)                                                  \
    do {                                                                       \
        if (!session_wait((s)))                                                \
            tdb_test_fail(__FILE__, __LINE__, "%s did not finish", #s);        \
        else if ((s)->sqlerrcode != 0)                                         \
            tdb_test_fail(__FILE__, __LINE__, "%s failed: %s", #s,             \
                          (s)->message);                                       \
    } while (0)

static void
session_start(Session *s, TransactionManager *tm)
{
    memset(s, 0, sizeof(*s));
    s->tm = tm;
    pthread_mutex_init(&s->mutex, NULL);
    pthread_cond_init(&s->changed, NULL);
    s->op = OP_START;
    s->nposted = 1;
    expect_int_eq(pthread_create(&s->thread, NULL, session_main, s), 0);
    expect_finished_ok(s);
}

/* A session in a transaction (with an xid if with_xid). */
static void
session_start_begun(Session *s, TransactionManager *tm, bool with_xid)
{
    session_start(s, tm);
    expect_run_ok(s, OP_BEGIN, InvalidOid);
    if (with_xid)
        expect_run_ok(s, OP_ASSIGN_XID, InvalidOid);
}

/* Destroy the session's Transaction (aborting) and end its thread. */
static void
session_stop(Session *s)
{
    if (!session_wait(s)) {
        printf("    a session did not finish its request within 30 s\n");
        fflush(stdout);
        abort(); /* the thread still uses the test's memory */
    }
    session_post(s, OP_QUIT, InvalidOid);
    expect_true(join_within(s->thread));
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->mutex);
}

/* The relation a session waits for, WRITER_LOCK for the writer lock. */
#define WRITER_LOCK InvalidOid

static bool
session_waits_for(Session *s, Oid relid)
{
    bool waits;

    pthread_mutex_lock(&s->tm->lock);
    waits = relid == WRITER_LOCK ? s->xact->waits_for_writer
                                 : s->xact->waits_for_relid == relid;
    pthread_mutex_unlock(&s->tm->lock);
    return waits;
}

/*
 * Does the session's current request block on relid (or the writer
 * lock)?  Waits up to 10 s for it to start waiting, then checks that it
 * is still waiting 20 ms later.
 */
static bool
session_blocks_on(Session *s, Oid relid)
{
    int i;

    for (i = 0; i < 10000 && !session_waits_for(s, relid); i++) {
        if (session_finished(s))
            return false;
        usleep(1000);
    }
    if (i == 10000)
        return false;
    usleep(20000);
    return !session_finished(s) && session_waits_for(s, relid);
}

/* The mode the session holds on relid (granted entries, read under the
 * manager's mutex: the session may be waiting meanwhile). */
static int
session_held(Session *s, Oid relid)
{
    int mode = 0;

    pthread_mutex_lock(&s->tm->lock);
    for (uint32 i = 0; i < s->tm->locks_used; i++) {
        const RelLockEntry *e = &s->tm->locks[i];

        if (e->owner == s->xact && e->relid == relid && e->granted &&
            e->mode > mode)
            mode = e->mode;
    }
    pthread_mutex_unlock(&s->tm->lock);
    return mode;
}

/* ----------------------------------------------------------------------
 * Holders on the main thread, and the ways a transaction ends
 * ---------------------------------------------------------------------- */

typedef enum EndHow {
    END_COMMIT,
    END_ABORT,
    END_FAIL,
    END_DESTROY,
    END_DELETE_CONTEXT,
} EndHow;

static const char *const end_how_names[] = {
    "commit", "abort", "fail", "destroy", "delete the session context",
};

/* A main-thread session in a context of its own, so it can be deleted. */
typedef struct Holder {
    MemoryContext cxt;
    Transaction *xact; /* NULL once destroyed */
} Holder;

static Transaction *
holder_begin(Holder *h, TransactionManager *tm)
{
    h->cxt = tdb_aset_create(tdb_current_mcxt, "session", ALLOCSET_SMALL_SIZES);
    h->xact = tdb_xact_create(tm, h->cxt);
    tdb_xact_begin(h->xact);
    return h->xact;
}

/*
 * End x's transaction by commit, abort or failure -- only that, so the
 * caller can see what it released (a FAILED session still waits for its
 * ROLLBACK) -- and check what is left of it.
 */
static void
end_transaction(Transaction *x, EndHow how)
{
    switch (how) {
    case END_COMMIT:
        expect_true(tdb_xact_commit(x));
        expect_int_eq(tdb_xact_state(x), XACT_STATE_IDLE);
        break;
    case END_ABORT:
        tdb_xact_abort(x);
        expect_int_eq(tdb_xact_state(x), XACT_STATE_IDLE);
        break;
    case END_FAIL:
        tdb_xact_fail(x);
        expect_int_eq(tdb_xact_state(x), XACT_STATE_FAILED);
        break;
    default:
        tdb_test_fail(__FILE__, __LINE__, "cannot end that way: %s",
                      end_how_names[how]);
    }
    expect_u64_eq(x->nlocks, 0);
    expect_u64_eq(tdb_xact_current_xid(x), InvalidTransactionId);
}

/* End the holder's transaction the given way (see end_transaction). */
static void
holder_end(Holder *h, EndHow how)
{
    switch (how) {
    case END_COMMIT:
    case END_ABORT:
    case END_FAIL:
        end_transaction(h->xact, how);
        break;
    case END_DESTROY:
        tdb_xact_destroy(h->xact);
        h->xact = NULL;
        break;
    case END_DELETE_CONTEXT:
        tdb_mcxt_delete(h->cxt);
        h->cxt = NULL;
        h->xact = NULL;
        break;
    }
}

/* Roll back whatever is left and free the holder. */
static void
holder_free(Holder *h)
{
    if (h->xact != NULL)
        tdb_xact_destroy(h->xact);
    if (h->cxt != NULL)
        tdb_mcxt_delete(h->cxt);
    h->xact = NULL;
    h->cxt = NULL;
}

/* ----------------------------------------------------------------------
 * Relation locks
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_share_locks_coexist)
{
    Env env = env_open();
    Transaction *a = begin_new(env.tm);
    Transaction *b = begin_new(env.tm);

    expect_int_eq(tdb_lock_relation_held(a, REL_A), 0);
    tdb_lock_relation(a, REL_A, REL_LOCK_SHARE);
    tdb_lock_relation(b, REL_A, REL_LOCK_SHARE);
    tdb_lock_relation(b, REL_B, REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(a, REL_A), REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(b, REL_A), REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(b, REL_B), REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(a, REL_B), 0); /* b's, not a's */
    expect_u64_eq(locks_used(env.tm), 3);

    /* held across statements, released at commit, each its own */
    tdb_xact_command_counter_increment(a);
    expect_int_eq(tdb_lock_relation_held(a, REL_A), REL_LOCK_SHARE);
    expect_true(tdb_xact_commit(a));
    expect_int_eq(tdb_lock_relation_held(a, REL_A), 0);
    expect_int_eq(tdb_lock_relation_held(b, REL_A), REL_LOCK_SHARE);
    expect_u64_eq(entries_of(env.tm, a, InvalidOid), 0);
    expect_u64_eq(locks_used(env.tm), 2);

    /* the next transaction starts with nothing */
    tdb_xact_begin(a);
    expect_int_eq(tdb_lock_relation_held(a, REL_A), 0);
    expect_true(tdb_xact_commit(a));
    expect_true(tdb_xact_commit(b));
    expect_int_eq(tdb_lock_relation_held(b, REL_B), 0);

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    env_close(&env);
}
TEST_END

/*
 * A main-thread holder takes rel in holder_mode; a session asks for the
 * conflicting mode and must wait -- also after the holder ends a
 * statement -- until the holder's transaction ends the given way.
 */
static void
check_release_wakes(TransactionManager *tm, EndHow how, RelLockMode holder_mode)
{
    const Oid rel = REL_A + (Oid)how;
    const bool holder_writes = holder_mode == REL_LOCK_EXCLUSIVE;
    const RelLockMode waiter_mode =
        holder_writes ? REL_LOCK_SHARE : REL_LOCK_EXCLUSIVE;
    Holder h;
    Session w;
    Transaction *x = holder_begin(&h, tm);

    if (holder_writes)
        (void)tdb_xact_assign_xid(x);
    tdb_lock_relation(x, rel, holder_mode);
    session_start_begun(&w, tm, !holder_writes);
    session_post(
        &w, waiter_mode == REL_LOCK_SHARE ? OP_LOCK_SHARE : OP_LOCK_EXCLUSIVE,
        rel);
    expect_true(session_blocks_on(&w, rel));

    /* the end of a statement is not the end of the transaction */
    tdb_xact_command_counter_increment(x);
    expect_int_eq(tdb_lock_relation_held(x, rel), holder_mode);
    expect_true(session_blocks_on(&w, rel));

    holder_end(&h, how);
    expect_finished_ok(&w);
    expect_int_eq(session_held(&w, rel), waiter_mode);
    expect_run_ok(&w, OP_COMMIT, InvalidOid);
    expect_int_eq(session_held(&w, rel), 0);
    session_stop(&w);
    holder_free(&h);
}

TEST_BEGIN(test_release_wakes_waiters)
{
    Env env = env_open();

    for (EndHow how = END_COMMIT; how <= END_DELETE_CONTEXT; how++) {
        int failures = tdb_test_state.nfailed_expects;
        char scenario[128];

        check_release_wakes(env.tm, how, REL_LOCK_SHARE);
        snprintf(scenario, sizeof(scenario),
                 "exclusive request, share holder ends by %s",
                 end_how_names[how]);
        report_scenario(failures, scenario);

        failures = tdb_test_state.nfailed_expects;
        check_release_wakes(env.tm, how, REL_LOCK_EXCLUSIVE);
        snprintf(scenario, sizeof(scenario),
                 "share request, exclusive holder ends by %s",
                 end_how_names[how]);
        report_scenario(failures, scenario);
    }
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_relock_and_upgrade)
{
    Env env = env_open();
    Transaction *w = begin_new(env.tm);
    Session r;

    /* same and weaker modes again: no new entry, mode unchanged */
    tdb_lock_relation(w, REL_A, REL_LOCK_SHARE);
    tdb_lock_relation(w, REL_A, REL_LOCK_SHARE);
    expect_u64_eq(entries_of(env.tm, w, REL_A), 1);
    expect_u64_eq(w->nlocks, 1);
    expect_int_eq(tdb_lock_relation_held(w, REL_A), REL_LOCK_SHARE);

    /* share -> exclusive in place when nobody else holds it */
    (void)tdb_xact_assign_xid(w);
    tdb_lock_relation(w, REL_A, REL_LOCK_EXCLUSIVE);
    expect_int_eq(tdb_lock_relation_held(w, REL_A), REL_LOCK_EXCLUSIVE);
    expect_u64_eq(entries_of(env.tm, w, REL_A), 1);
    tdb_lock_relation(w, REL_A, REL_LOCK_SHARE);
    tdb_lock_relation(w, REL_A, REL_LOCK_EXCLUSIVE);
    expect_int_eq(tdb_lock_relation_held(w, REL_A), REL_LOCK_EXCLUSIVE);
    expect_u64_eq(entries_of(env.tm, w, REL_A), 1);
    expect_u64_eq(w->nlocks, 1);
    expect_true(tdb_xact_commit(w));
    expect_u64_eq(locks_used(env.tm), 0);

    /* upgrade while another session shares it: waits, keeping share */
    session_start_begun(&r, env.tm, true);
    expect_run_ok(&r, OP_LOCK_SHARE, REL_A);
    tdb_xact_begin(w);
    tdb_lock_relation(w, REL_A, REL_LOCK_SHARE);
    session_post(&r, OP_LOCK_EXCLUSIVE, REL_A);
    expect_true(session_blocks_on(&r, REL_A));
    pthread_mutex_lock(&env.tm->lock);
    expect_int_eq(r.xact->waits_for_mode, REL_LOCK_EXCLUSIVE);
    pthread_mutex_unlock(&env.tm->lock);
    expect_u64_eq(entries_of(env.tm, r.xact, REL_A), 2); /* share + queued */
    expect_int_eq(session_held(&r, REL_A), REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(w, REL_A), REL_LOCK_SHARE);
    expect_true(tdb_xact_commit(w));
    expect_finished_ok(&r);
    expect_int_eq(session_held(&r, REL_A), REL_LOCK_EXCLUSIVE);
    expect_int_eq(tdb_lock_relation_held(r.xact, REL_A), REL_LOCK_EXCLUSIVE);
    expect_u64_eq(entries_of(env.tm, r.xact, REL_A), 1);
    expect_u64_eq(r.xact->nlocks, 1);
    expect_run_ok(&r, OP_COMMIT, InvalidOid);
    session_stop(&r);

    tdb_xact_destroy(w);
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_queueing)
{
    Env env = env_open();
    Transaction *holder = begin_new(env.tm);
    Session w, late;

    tdb_xact_set_lock_timeout(holder, 1000); /* a wrong wait must not hang */
    tdb_lock_relation(holder, REL_A, REL_LOCK_SHARE);
    session_start_begun(&w, env.tm, true);
    session_post(&w, OP_LOCK_EXCLUSIVE, REL_A);
    expect_true(session_blocks_on(&w, REL_A));

    /* a newcomer that holds nothing on REL_A lines up behind w ... */
    session_start_begun(&late, env.tm, false);
    session_post(&late, OP_LOCK_SHARE, REL_A);
    expect_true(session_blocks_on(&late, REL_A));
    /* ... but not for other relations */
    tdb_lock_relation(holder, REL_B, REL_LOCK_SHARE);
    /* a session holding REL_A already is granted at once */
    tdb_lock_relation(holder, REL_A, REL_LOCK_SHARE);
    expect_int_eq(tdb_lock_relation_held(holder, REL_A), REL_LOCK_SHARE);
    expect_u64_eq(entries_of(env.tm, holder, REL_A), 1);

    /* the holder goes: w first, the newcomer still waits (now for w) */
    expect_true(tdb_xact_commit(holder));
    expect_finished_ok(&w);
    expect_int_eq(session_held(&w, REL_A), REL_LOCK_EXCLUSIVE);
    expect_true(session_blocks_on(&late, REL_A));
    expect_run_ok(&w, OP_COMMIT, InvalidOid);
    expect_finished_ok(&late);
    expect_int_eq(session_held(&late, REL_A), REL_LOCK_SHARE);
    expect_run_ok(&late, OP_COMMIT, InvalidOid);

    session_stop(&w);
    session_stop(&late);
    tdb_xact_destroy(holder);
    env_close(&env);
}
TEST_END

static long
ms_since(const struct timespec *t0)
{
    struct timespec t1;

    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1000 +
           (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* x asks for rel in mode with a 30 ms timeout: 55P03, nothing taken. */
static void
expect_lock_timeout(TransactionManager *tm, Transaction *x, Oid rel,
                    RelLockMode mode, const char *detail)
{
    struct timespec t0;
    int held_before = tdb_lock_relation_held(x, rel);
    uint32 nlocks_before = x->nlocks;

    tdb_xact_set_lock_timeout(x, 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    expect_error(tdb_lock_relation(x, rel, mode), ERRCODE_LOCK_NOT_AVAILABLE,
                 "canceling statement due to lock timeout");
    expect_true(ms_since(&t0) >= 29);
    expect_str_eq(tdb_test_last_error.detail, detail);
    expect_int_eq(tdb_xact_state(x), XACT_STATE_IN_PROGRESS);
    expect_int_eq(tdb_lock_relation_held(x, rel), held_before);
    expect_u64_eq(x->nlocks, nlocks_before);
    expect_u64_eq(entries_of(tm, x, rel), held_before != 0 ? 1 : 0);
    pthread_mutex_lock(&tm->lock);
    expect_u64_eq(x->waits_for_relid, InvalidOid);
    pthread_mutex_unlock(&tm->lock);
}

TEST_BEGIN(test_lock_timeout)
{
    Env env = env_open();
    Transaction *reader = begin_new(env.tm);
    Transaction *writer = begin_new(env.tm);
    Transaction *other = begin_new(env.tm);
    char detail[128];
    Session w, late;

    tdb_lock_relation(reader, REL_A, REL_LOCK_SHARE);
    (void)tdb_xact_assign_xid(writer);
    snprintf(detail, sizeof(detail),
             "Waiting for AccessExclusiveLock on relation %u.", REL_A);
    expect_lock_timeout(env.tm, writer, REL_A, REL_LOCK_EXCLUSIVE, detail);
    /* no queued request left behind: newcomers are not held up */
    tdb_xact_set_lock_timeout(other, 1000);
    tdb_lock_relation(other, REL_A, REL_LOCK_SHARE);
    expect_true(tdb_xact_commit(other));
    /* an upgrade that times out keeps the share lock */
    tdb_lock_relation(writer, REL_A, REL_LOCK_SHARE);
    expect_lock_timeout(env.tm, writer, REL_A, REL_LOCK_EXCLUSIVE, detail);

    /* share requests time out behind an exclusive holder */
    tdb_lock_relation(writer, REL_B, REL_LOCK_EXCLUSIVE);
    snprintf(detail, sizeof(detail),
             "Waiting for AccessShareLock on relation %u.", REL_B);
    tdb_xact_begin(other);
    expect_lock_timeout(env.tm, other, REL_B, REL_LOCK_SHARE, detail);
    expect_true(tdb_xact_commit(writer));
    expect_true(tdb_xact_commit(other));

    /* someone else's exclusive request later succeeds */
    expect_true(tdb_xact_commit(reader));
    tdb_xact_begin(other);
    (void)tdb_xact_assign_xid(other);
    tdb_lock_relation(other, REL_A, REL_LOCK_EXCLUSIVE);
    expect_int_eq(tdb_lock_relation_held(other, REL_A), REL_LOCK_EXCLUSIVE);
    expect_true(tdb_xact_commit(other));

    /* a share request queued behind a waiting exclusive one is woken
     * when that one times out, although the holder keeps its lock */
    tdb_xact_begin(reader);
    tdb_lock_relation(reader, REL_A, REL_LOCK_SHARE);
    session_start_begun(&w, env.tm, true);
    tdb_xact_set_lock_timeout(w.xact, 1500); /* the session is idle */
    session_start_begun(&late, env.tm, false);
    session_post(&w, OP_LOCK_EXCLUSIVE, REL_A);
    expect_true(session_blocks_on(&w, REL_A));
    session_post(&late, OP_LOCK_SHARE, REL_A);
    expect_true(session_blocks_on(&late, REL_A));
    expect_true(session_wait(&w));
    expect_int_eq(w.sqlerrcode, ERRCODE_LOCK_NOT_AVAILABLE);
    expect_finished_ok(&late);
    expect_int_eq(session_held(&late, REL_A), REL_LOCK_SHARE);
    expect_int_eq(session_held(&w, REL_A), 0);
    expect_u64_eq(entries_of(env.tm, w.xact, InvalidOid), 0);
    session_stop(&w);
    session_stop(&late);

    tdb_xact_destroy(reader);
    tdb_xact_destroy(writer);
    tdb_xact_destroy(other);
    env_close(&env);
}
TEST_END

static void
expect_deadlock(Session *s, const char *detail)
{
    expect_int_eq(s->sqlerrcode, ERRCODE_T_R_DEADLOCK_DETECTED);
    expect_str_eq(s->message, "deadlock detected");
    expect_str_eq(s->detail, detail);
}

/*
 * The writer w holds REL_A exclusively, the reader s REL_B shared; each
 * then asks for the other's relation.  Whoever asks second gets 40P01,
 * keeps what it had, and the other proceeds once it aborts.
 */
static void
check_relation_deadlock(TransactionManager *tm, bool writer_waits_first)
{
    Session w, s;
    Session *first = writer_waits_first ? &w : &s;
    Session *second = writer_waits_first ? &s : &w;
    /* what each asks for: w REL_B exclusively, s REL_A shared */
    const SessionOp first_op =
        writer_waits_first ? OP_LOCK_EXCLUSIVE : OP_LOCK_SHARE;
    const SessionOp second_op =
        writer_waits_first ? OP_LOCK_SHARE : OP_LOCK_EXCLUSIVE;
    const Oid first_rel = writer_waits_first ? REL_B : REL_A;
    const Oid second_rel = writer_waits_first ? REL_A : REL_B;
    char detail[256];

    session_start_begun(&w, tm, true);
    session_start_begun(&s, tm, false);
    expect_run_ok(&w, OP_LOCK_EXCLUSIVE, REL_A);
    expect_run_ok(&s, OP_LOCK_SHARE, REL_B);

    session_post(first, first_op, first_rel);
    expect_true(session_blocks_on(first, first_rel));
    expect_int_eq(session_run(second, second_op, second_rel),
                  ERRCODE_T_R_DEADLOCK_DETECTED);
    snprintf(detail, sizeof(detail),
             "This session waits for %s on relation %u, held by a session "
             "that waits for this one.",
             second_op == OP_LOCK_SHARE ? "AccessShareLock"
                                        : "AccessExclusiveLock",
             second_rel);
    expect_deadlock(second, detail);
    /* the loser keeps its locks and left no request behind */
    expect_int_eq(session_held(&w, REL_A), REL_LOCK_EXCLUSIVE);
    expect_int_eq(session_held(&s, REL_B), REL_LOCK_SHARE);
    expect_u64_eq(entries_of(tm, second->xact, InvalidOid), 1);
    expect_true(session_blocks_on(first, first_rel));

    expect_run_ok(second, OP_ABORT, InvalidOid);
    expect_finished_ok(first);
    expect_int_eq(session_held(first, first_rel), first_op == OP_LOCK_SHARE
                                                      ? REL_LOCK_SHARE
                                                      : REL_LOCK_EXCLUSIVE);
    expect_run_ok(first, OP_COMMIT, InvalidOid);
    session_stop(&w);
    session_stop(&s);
}

TEST_BEGIN(test_relation_deadlock)
{
    Env env = env_open();
    int failures = tdb_test_state.nfailed_expects;

    check_relation_deadlock(env.tm, true);
    report_scenario(failures, "the writer waits first");
    failures = tdb_test_state.nfailed_expects;
    check_relation_deadlock(env.tm, false);
    report_scenario(failures, "the reader waits first");
    env_close(&env);
}
TEST_END

/*
 * The reader s holds REL_A; the writer w (holding the writer lock) asks
 * for it exclusively while s asks for the writer lock.  Whoever asks
 * second gets 40P01.
 */
static void
check_writer_lock_deadlock(TransactionManager *tm, bool writer_waits_first)
{
    Session w, s;
    char detail[256];

    session_start_begun(&s, tm, false);
    session_start_begun(&w, tm, true);
    expect_run_ok(&s, OP_LOCK_SHARE, REL_A);
    if (writer_waits_first) {
        session_post(&w, OP_LOCK_EXCLUSIVE, REL_A);
        expect_true(session_blocks_on(&w, REL_A));
        expect_int_eq(session_run(&s, OP_ASSIGN_XID, InvalidOid),
                      ERRCODE_T_R_DEADLOCK_DETECTED);
        expect_deadlock(&s, "This session waits for the database-wide "
                            "write lock, held by a session that waits for "
                            "this one.");
        expect_u64_eq(tdb_xact_current_xid(s.xact), InvalidTransactionId);
        expect_false(s.xact->waits_for_writer);
        expect_int_eq(session_held(&s, REL_A), REL_LOCK_SHARE);
        expect_true(session_blocks_on(&w, REL_A));
        expect_run_ok(&s, OP_ABORT, InvalidOid);
        expect_finished_ok(&w);
        expect_int_eq(session_held(&w, REL_A), REL_LOCK_EXCLUSIVE);
        expect_run_ok(&w, OP_COMMIT, InvalidOid);
    } else {
        TransactionId w_xid = tdb_xact_current_xid(w.xact);

        session_post(&s, OP_ASSIGN_XID, InvalidOid);
        expect_true(session_blocks_on(&s, WRITER_LOCK));
        expect_int_eq(session_run(&w, OP_LOCK_EXCLUSIVE, REL_A),
                      ERRCODE_T_R_DEADLOCK_DETECTED);
        snprintf(detail, sizeof(detail),
                 "This session waits for AccessExclusiveLock on relation "
                 "%u, held by a session that waits for this one.",
                 REL_A);
        expect_deadlock(&w, detail);
        expect_int_eq(session_held(&w, REL_A), 0);
        expect_u64_eq(entries_of(tm, w.xact, InvalidOid), 0);
        expect_true(session_blocks_on(&s, WRITER_LOCK));
        expect_run_ok(&w, OP_ABORT, InvalidOid);
        expect_finished_ok(&s);
        expect_u64_eq(tdb_xact_current_xid(s.xact), w_xid + 1);
        expect_run_ok(&s, OP_COMMIT, InvalidOid);
        expect_false(tdb_xact_xid_did_commit(tm, w_xid));
        expect_true(tdb_xact_xid_did_commit(tm, w_xid + 1));
    }
    session_stop(&w);
    session_stop(&s);
}

TEST_BEGIN(test_writer_lock_deadlock)
{
    Env env = env_open();
    int failures = tdb_test_state.nfailed_expects;

    check_writer_lock_deadlock(env.tm, true);
    report_scenario(failures, "the writer waits first");
    failures = tdb_test_state.nfailed_expects;
    check_writer_lock_deadlock(env.tm, false);
    report_scenario(failures, "the reader waits first");
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_lock_table_full)
{
    Env env = env_open();
    Transaction *a = begin_new(env.tm);
    Transaction *b = begin_new(env.tm);
    uint32 used;

    tdb_xact_set_lock_timeout(b, 1000);
    tdb_lock_relation(b, REL_A, REL_LOCK_SHARE);
    for (Oid rel = 1; rel < LOCK_TABLE_SIZE; rel++)
        tdb_lock_relation(a, rel, REL_LOCK_SHARE);
    expect_u64_eq(locks_used(env.tm), LOCK_TABLE_SIZE);
    expect_u64_eq(a->nlocks, LOCK_TABLE_SIZE - 1);

    expect_error(tdb_lock_relation(a, LOCK_TABLE_SIZE, REL_LOCK_SHARE),
                 ERRCODE_OUT_OF_MEMORY, "out of shared memory");
    expect_str_contains(tdb_test_last_error.hint, "8192");
    expect_u64_eq(a->nlocks, LOCK_TABLE_SIZE - 1);
    /* a relation someone else holds needs an entry too */
    expect_error(tdb_lock_relation(b, 1, REL_LOCK_SHARE), ERRCODE_OUT_OF_MEMORY,
                 "out of shared memory");
    expect_int_eq(tdb_lock_relation_held(b, 1), 0);
    /* an exclusive request that would wait needs an entry to queue in */
    (void)tdb_xact_assign_xid(b);
    expect_error(tdb_lock_relation(b, 2, REL_LOCK_EXCLUSIVE),
                 ERRCODE_OUT_OF_MEMORY, "out of shared memory");
    expect_u64_eq(b->nlocks, 1);
    /* ... but what is held already works in place */
    tdb_lock_relation(a, 3, REL_LOCK_SHARE);
    tdb_lock_relation(b, REL_A, REL_LOCK_EXCLUSIVE);
    expect_int_eq(tdb_lock_relation_held(b, REL_A), REL_LOCK_EXCLUSIVE);
    expect_u64_eq(locks_used(env.tm), LOCK_TABLE_SIZE);

    /* the abort gives every entry back */
    tdb_xact_abort(a);
    expect_u64_eq(a->nlocks, 0);
    expect_u64_eq(locks_used(env.tm), 1);
    pthread_mutex_lock(&env.tm->lock);
    used = env.tm->locks_used;
    pthread_mutex_unlock(&env.tm->lock);
    expect_u64_eq(used, 1); /* the scanned range shrank too */
    tdb_xact_begin(a);
    tdb_lock_relation(a, LOCK_TABLE_SIZE, REL_LOCK_SHARE);
    tdb_lock_relation(b, 2, REL_LOCK_EXCLUSIVE);
    expect_true(tdb_xact_commit(a));
    expect_true(tdb_xact_commit(b));

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_lock_misuse)
{
    Env env = env_open();
    Transaction *a = tdb_xact_create(env.tm, NULL);
    char msg[128];

    expect_error(tdb_lock_relation(a, REL_A, REL_LOCK_SHARE),
                 ERRCODE_INTERNAL_ERROR, "outside a transaction");
    tdb_xact_begin(a);
    snprintf(msg, sizeof(msg),
             "an exclusive lock on relation %u needs a transaction ID", REL_A);
    expect_error(tdb_lock_relation(a, REL_A, REL_LOCK_EXCLUSIVE),
                 ERRCODE_INTERNAL_ERROR, msg);
    expect_int_eq(tdb_lock_relation_held(a, REL_A), 0);
    expect_u64_eq(locks_used(env.tm), 0);
    /* a share lock first does not make it legal */
    tdb_lock_relation(a, REL_A, REL_LOCK_SHARE);
    expect_error(tdb_lock_relation(a, REL_A, REL_LOCK_EXCLUSIVE),
                 ERRCODE_INTERNAL_ERROR, msg);
    expect_int_eq(tdb_lock_relation_held(a, REL_A), REL_LOCK_SHARE);
    expect_u64_eq(entries_of(env.tm, a, REL_A), 1);

    tdb_xact_fail(a);
    expect_error(tdb_lock_relation(a, REL_A, REL_LOCK_SHARE),
                 ERRCODE_IN_FAILED_SQL_TRANSACTION,
                 "current transaction is aborted");
    expect_u64_eq(locks_used(env.tm), 0);
    tdb_xact_abort(a);
    expect_error(tdb_lock_relation(a, REL_A, REL_LOCK_SHARE),
                 ERRCODE_INTERNAL_ERROR, "outside a transaction");

    tdb_xact_destroy(a);
    env_close(&env);
}
TEST_END

/* ----------------------------------------------------------------------
 * End-of-transaction callbacks
 * ---------------------------------------------------------------------- */

/* What happened, as text: "P1 P2 C1 C2 ...". */
typedef struct EventLog {
    char text[1024];
} EventLog;

static TDB_PRINTF(2, 3) void log_add(EventLog *log, const char *fmt, ...)
{
    Size len = strlen(log->text);
    va_list args;

    if (len > 0 && len + 1 < sizeof(log->text))
        log->text[len++] = ' ';
    va_start(args, fmt);
    vsnprintf(log->text + len, sizeof(log->text) - len, fmt, args);
    va_end(args);
}

static const char event_letters[] = {
    [XACT_EVENT_PRE_COMMIT] = 'P',
    [XACT_EVENT_COMMIT] = 'C',
    [XACT_EVENT_ABORT] = 'A',
};

/* What a probe saw when its callback ran for one event. */
typedef struct ProbeView {
    bool called;
    XactState state;
    bool writer_held;
    TransactionId xid;
    bool xid_committed;
    int lock_mode; /* held on Probe.relid */
} ProbeView;

/* A callback's argument: logs "<event letter><id>", and raises at the
 * events in raise_at ("!" appended to its log entry). */
typedef struct Probe {
    EventLog *log;
    int id;
    uint32 raise_at; /* bit (1 << event) */
    Transaction *xact;
    Oid relid;
    ProbeView seen[3]; /* by event */
} Probe;

#define AT(event) (1u << (event))

static void
probe_callback(XactEvent event, void *arg)
{
    Probe *p = arg;
    ProbeView *v = &p->seen[event];
    bool raise = (p->raise_at & AT(event)) != 0;

    log_add(p->log, "%c%d%s", event_letters[event], p->id, raise ? "!" : "");
    v->called = true;
    v->state = tdb_xact_state(p->xact);
    v->writer_held = writer_is(p->xact->tm, p->xact);
    v->xid = tdb_xact_current_xid(p->xact);
    v->xid_committed = TransactionIdIsValid(v->xid) &&
                       tdb_xact_xid_did_commit(p->xact->tm, v->xid);
    v->lock_mode = tdb_lock_relation_held(p->xact, p->relid);
    if (raise)
        ereport(ERROR, errcode(ERRCODE_IO_ERROR),
                errmsg("probe %d failed at %c", p->id, event_letters[event]));
}

static void
probe_register(Probe *p, EventLog *log, Transaction *xact, int id,
               uint32 raise_at)
{
    memset(p, 0, sizeof(*p));
    p->log = log;
    p->id = id;
    p->raise_at = raise_at;
    p->xact = xact;
    p->relid = REL_A;
    tdb_xact_register_callback(xact, probe_callback, p);
}

/* Reports below ERROR go to the log as "W[SQLSTATE](message)". */
static void
log_notice(const ErrorData *e, void *arg)
{
    char state[6];

    tdb_sqlstate_unpack(e->sqlerrcode, state);
    log_add(arg, "%s[%s](%s)", e->elevel == WARNING ? "W" : "N", state,
            e->message);
}

typedef struct NoticeToLog {
    ErrorNoticeHook old_hook;
    void *old_arg;
} NoticeToLog;

static void
notices_to_log(NoticeToLog *n, EventLog *log)
{
    n->old_hook = tdb_error_set_notice_hook(log_notice, log, &n->old_arg);
}

static void
notices_restore(NoticeToLog *n)
{
    tdb_error_set_notice_hook(n->old_hook, n->old_arg, NULL);
}

/* A transaction with an xid and an exclusive lock on REL_A. */
static void
begin_writing(Transaction *x)
{
    tdb_xact_begin(x);
    (void)tdb_xact_assign_xid(x);
    tdb_lock_relation(x, REL_A, REL_LOCK_EXCLUSIVE);
}

TEST_BEGIN(test_callback_order)
{
    Env env = env_open();
    Transaction *x = tdb_xact_create(env.tm, NULL);
    MemoryContext session_cxt;
    EventLog log = {{0}};
    Probe p1, p2, p3;
    TransactionId xid;

    /* commit: PRE_COMMIT for all, in order, then COMMIT for all */
    begin_writing(x);
    xid = tdb_xact_current_xid(x);
    probe_register(&p1, &log, x, 1, 0);
    probe_register(&p2, &log, x, 2, 0);
    probe_register(&p3, &log, x, 3, 0);
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "P1 P2 P3 C1 C2 C3");
    /* before COMMITTED is written, with everything held */
    expect_int_eq(p1.seen[XACT_EVENT_PRE_COMMIT].state, XACT_STATE_IN_PROGRESS);
    expect_u64_eq(p1.seen[XACT_EVENT_PRE_COMMIT].xid, xid);
    expect_false(p1.seen[XACT_EVENT_PRE_COMMIT].xid_committed);
    expect_true(p1.seen[XACT_EVENT_PRE_COMMIT].writer_held);
    expect_int_eq(p1.seen[XACT_EVENT_PRE_COMMIT].lock_mode, REL_LOCK_EXCLUSIVE);
    /* after it is durable, with the writer lock and relation locks */
    expect_true(p3.seen[XACT_EVENT_COMMIT].xid_committed);
    expect_true(p3.seen[XACT_EVENT_COMMIT].writer_held);
    expect_int_eq(p3.seen[XACT_EVENT_COMMIT].lock_mode, REL_LOCK_EXCLUSIVE);
    expect_false(p3.seen[XACT_EVENT_ABORT].called);
    expect_true(tdb_xact_xid_did_commit(env.tm, xid));

    /* abort: ABORT only, before the locks go */
    log.text[0] = '\0';
    begin_writing(x);
    xid = tdb_xact_current_xid(x);
    probe_register(&p1, &log, x, 1, 0);
    probe_register(&p2, &log, x, 2, 0);
    tdb_xact_abort(x);
    expect_str_eq(log.text, "A1 A2");
    expect_true(p2.seen[XACT_EVENT_ABORT].writer_held);
    expect_int_eq(p2.seen[XACT_EVENT_ABORT].lock_mode, REL_LOCK_EXCLUSIVE);
    expect_false(p2.seen[XACT_EVENT_ABORT].xid_committed);
    expect_false(tdb_xact_xid_did_commit(env.tm, xid));

    /* a read-only transaction gets its callbacks too */
    log.text[0] = '\0';
    tdb_xact_begin(x);
    probe_register(&p1, &log, x, 1, 0);
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "P1 C1");
    expect_u64_eq(p1.seen[XACT_EVENT_COMMIT].xid, InvalidTransactionId);

    /* failure inside a block: ABORT at the failure, nothing at ROLLBACK */
    log.text[0] = '\0';
    begin_writing(x);
    probe_register(&p1, &log, x, 1, 0);
    tdb_xact_fail(x);
    expect_str_eq(log.text, "A1");
    expect_int_eq(p1.seen[XACT_EVENT_ABORT].state, XACT_STATE_IN_PROGRESS);
    expect_false(tdb_xact_commit(x)); /* COMMIT acts as ROLLBACK */
    expect_str_eq(log.text, "A1");
    tdb_xact_destroy(x);

    /* destroying a session aborts its transaction: ABORT runs */
    log.text[0] = '\0';
    x = tdb_xact_create(env.tm, NULL);
    begin_writing(x);
    probe_register(&p1, &log, x, 1, 0);
    tdb_xact_destroy(x);
    expect_str_eq(log.text, "A1");
    expect_true(p1.seen[XACT_EVENT_ABORT].writer_held);

    /* deleting its context is a crash: none runs */
    log.text[0] = '\0';
    session_cxt =
        tdb_aset_create(tdb_current_mcxt, "session", ALLOCSET_SMALL_SIZES);
    x = tdb_xact_create(env.tm, session_cxt);
    begin_writing(x);
    probe_register(&p1, &log, x, 1, 0);
    tdb_mcxt_delete(session_cxt);
    expect_str_eq(log.text, "");
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_callback_pre_commit_raises)
{
    Env env = env_open();
    Transaction *x = tdb_xact_create(env.tm, NULL);
    Transaction *other = begin_new(env.tm);
    EventLog log = {{0}};
    Probe p1, p2, p3;
    TransactionId xid;

    begin_writing(x);
    xid = tdb_xact_current_xid(x);
    probe_register(&p1, &log, x, 1, 0);
    probe_register(&p2, &log, x, 2, AT(XACT_EVENT_PRE_COMMIT));
    probe_register(&p3, &log, x, 3, 0);
    expect_error(tdb_xact_commit(x), ERRCODE_IO_ERROR, "probe 2 failed at P");
    /* p3's PRE_COMMIT never ran; every ABORT did, with the locks held */
    expect_str_eq(log.text, "P1 P2! A1 A2 A3");
    expect_true(p3.seen[XACT_EVENT_ABORT].writer_held);
    expect_int_eq(p3.seen[XACT_EVENT_ABORT].lock_mode, REL_LOCK_EXCLUSIVE);
    expect_false(p1.seen[XACT_EVENT_COMMIT].called);

    /* aborted: not committed, not running, recorded ABORTED */
    expect_int_eq(tdb_xact_state(x), XACT_STATE_IDLE);
    expect_u64_eq(tdb_xact_current_xid(x), InvalidTransactionId);
    expect_false(tdb_xact_xid_did_commit(env.tm, xid));
    expect_false(tdb_xact_xid_is_in_progress(env.tm, xid));
    expect_int_eq(tdb_clog_get_status(tdb_xact_manager_clog(env.tm), xid),
                  TRANSACTION_STATUS_ABORTED);
    /* the writer lock and the relation lock are free */
    expect_true(writer_is(env.tm, NULL));
    expect_u64_eq(entries_of(env.tm, x, InvalidOid), 0);
    tdb_xact_set_lock_timeout(other, 1000);
    expect_u64_eq(tdb_xact_assign_xid(other), xid + 1);
    tdb_lock_relation(other, REL_A, REL_LOCK_EXCLUSIVE);
    expect_true(tdb_xact_commit(other));
    /* the session carries on */
    log.text[0] = '\0';
    tdb_xact_begin(x);
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "");

    tdb_xact_destroy(x);
    tdb_xact_destroy(other);
    env_close(&env);
}
TEST_END

TEST_BEGIN(test_callback_commit_abort_raise)
{
    Env env = env_open();
    Transaction *x = tdb_xact_create(env.tm, NULL);
    EventLog log = {{0}};
    NoticeToLog saved_hook;
    Probe p1, p2, p3;
    TransactionId xid;
    volatile bool caught = false;

    notices_to_log(&saved_hook, &log);

    /* COMMIT callbacks raising: WARNINGs, the rest run, committed */
    begin_writing(x);
    xid = tdb_xact_current_xid(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_COMMIT));
    probe_register(&p2, &log, x, 2, 0);
    probe_register(&p3, &log, x, 3, AT(XACT_EVENT_COMMIT));
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "P1 P2 P3 C1! W[58030](probe 1 failed at C) C2 "
                            "C3! W[58030](probe 3 failed at C)");
    expect_true(tdb_xact_xid_did_commit(env.tm, xid));
    expect_int_eq(tdb_xact_state(x), XACT_STATE_IDLE);
    expect_true(writer_is(env.tm, NULL));
    expect_u64_eq(entries_of(env.tm, x, InvalidOid), 0);
    expect_ptr_null(tdb_error_current());

    /* ABORT callbacks raising, on abort and on failure */
    log.text[0] = '\0';
    begin_writing(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_ABORT));
    probe_register(&p2, &log, x, 2, 0);
    tdb_xact_abort(x);
    expect_str_eq(log.text, "A1! W[58030](probe 1 failed at A) A2");
    expect_true(writer_is(env.tm, NULL));
    log.text[0] = '\0';
    begin_writing(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_ABORT));
    probe_register(&p2, &log, x, 2, 0);
    tdb_xact_fail(x);
    expect_str_eq(log.text, "A1! W[58030](probe 1 failed at A) A2");
    expect_int_eq(tdb_xact_state(x), XACT_STATE_FAILED);
    expect_true(writer_is(env.tm, NULL));
    tdb_xact_abort(x);

    /* a failed PRE_COMMIT whose abort meets a raising ABORT callback:
     * commit still raises the PRE_COMMIT error */
    log.text[0] = '\0';
    begin_writing(x);
    xid = tdb_xact_current_xid(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_ABORT));
    probe_register(&p2, &log, x, 2, AT(XACT_EVENT_PRE_COMMIT));
    expect_error(tdb_xact_commit(x), ERRCODE_IO_ERROR, "probe 2 failed at P");
    expect_str_eq(log.text, "P1 P2! A1! W[58030](probe 1 failed at A) A2");
    expect_int_eq(tdb_xact_state(x), XACT_STATE_IDLE);
    expect_false(tdb_xact_xid_did_commit(env.tm, xid));
    expect_true(writer_is(env.tm, NULL));

    /* error recovery aborting inside TDB_CATCH keeps its own error */
    log.text[0] = '\0';
    begin_writing(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_ABORT));
    TDB_TRY();
    {
        ereport(ERROR, errcode(ERRCODE_DISK_FULL),
                errmsg("could not extend file"));
    }
    TDB_CATCH();
    {
        const ErrorData *e;

        tdb_xact_abort(x);
        e = tdb_error_current();
        expect_ptr_not_null(e);
        if (e != NULL) {
            expect_int_eq(e->sqlerrcode, ERRCODE_DISK_FULL);
            expect_str_eq(e->message, "could not extend file");
        }
        tdb_error_flush();
        caught = true;
    }
    TDB_END_TRY();
    expect_true(caught);
    expect_str_eq(log.text, "A1! W[58030](probe 1 failed at A)");
    expect_true(writer_is(env.tm, NULL));

    notices_restore(&saved_hook);
    tdb_xact_destroy(x);
    env_close(&env);
}
TEST_END

/* Calls of count_callback; must stay 0: its registrations are refused. */
static int refused_callback_calls;

static void
count_callback(XactEvent event, void *arg)
{
    (void)event;
    (*(int *)arg)++;
}

static void
expect_registration_refused(Transaction *x)
{
    expect_error(
        tdb_xact_register_callback(x, count_callback, &refused_callback_calls),
        ERRCODE_INTERNAL_ERROR,
        "cannot register a callback outside a transaction");
}

TEST_BEGIN(test_callback_registration)
{
    static const char *const expected_logs[] = {
        [END_COMMIT] = "P1 C1",
        [END_ABORT] = "A1",
        [END_FAIL] = "A1",
    };
    Env env = env_open();
    Transaction *x = tdb_xact_create(env.tm, NULL);
    EventLog log = {{0}};
    Probe p1;

    expect_registration_refused(x);

    /* a registration lasts one transaction, however it ends */
    for (EndHow how = END_COMMIT; how <= END_FAIL; how++) {
        int failures = tdb_test_state.nfailed_expects;

        log.text[0] = '\0';
        tdb_xact_begin(x);
        probe_register(&p1, &log, x, 1, 0);
        end_transaction(x, how);
        if (how == END_FAIL) {
            expect_registration_refused(x); /* FAILED */
            tdb_xact_abort(x);
        }
        tdb_xact_begin(x);
        expect_true(tdb_xact_commit(x));
        tdb_xact_begin(x);
        tdb_xact_abort(x);
        expect_str_eq(log.text, expected_logs[how]);
        report_scenario(failures, end_how_names[how]);
    }
    /* ... also one whose commit failed */
    log.text[0] = '\0';
    tdb_xact_begin(x);
    probe_register(&p1, &log, x, 1, AT(XACT_EVENT_PRE_COMMIT));
    expect_error(tdb_xact_commit(x), ERRCODE_IO_ERROR, "probe 1");
    tdb_xact_begin(x);
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "P1! A1");

    /* the same callback twice runs twice */
    log.text[0] = '\0';
    tdb_xact_begin(x);
    probe_register(&p1, &log, x, 1, 0);
    tdb_xact_register_callback(x, probe_callback, &p1);
    expect_true(tdb_xact_commit(x));
    expect_str_eq(log.text, "P1 P1 C1 C1");
    expect_int_eq(refused_callback_calls, 0);

    tdb_xact_destroy(x);
    env_close(&env);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_lmgr", TEST_CASE(test_share_locks_coexist),
        TEST_CASE(test_release_wakes_waiters),
        TEST_CASE(test_relock_and_upgrade), TEST_CASE(test_queueing),
        TEST_CASE(test_lock_timeout), TEST_CASE(test_relation_deadlock),
        TEST_CASE(test_writer_lock_deadlock), TEST_CASE(test_lock_table_full),
        TEST_CASE(test_lock_misuse), TEST_CASE(test_callback_order),
        TEST_CASE(test_callback_pre_commit_raises),
        TEST_CASE(test_callback_commit_abort_raise),
        TEST_CASE(test_callback_registration));
}
