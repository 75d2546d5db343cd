/*
 * stmt_timeout.c -- statement_timeout: one timer thread for the process
 * that cancels statements running past their session's limit.
 *
 * A session arms its StatementTimer when a statement starts (tcop_int.h
 * says where: each statement of a simple query string, the first
 * Parse/Bind/Execute of an extended-protocol batch) and disarms it when
 * the statement ends, fails, or the batch reaches Sync, as PostgreSQL 15
 * enables and disables its STATEMENT_TIMEOUT.  Armed timers sit in one
 * list under timer_lock; the thread sleeps until the earliest deadline
 * and then stores XACT_CANCEL_STATEMENT_TIMEOUT into that session's
 * cancel flag -- the same flag a cancel request sets -- so the statement
 * stops at its next interrupt check (once per row in scans, every lock
 * wait slice) with 57014 "canceling statement due to statement timeout".
 * The hot path pays nothing beyond the flag test it already had: no
 * clock is read per row.
 *
 *        session thread                         timer thread
 *   arm:    lock; push; signal; unlock     wait until the earliest deadline
 *   ...     (rows; flag tested per row)    lock; deadline passed: flag = 2,
 *   disarm: lock; unlink; flag 2 -> 0;           unlink; unlock
 *           unlock
 *
 * Invariants: a timer is in the list exactly while t->in_list (both
 * under timer_lock); t->active is the owner's view (armed and not yet
 * disarmed) and only the owning session's thread reads or writes it.
 * Disarming clears a timeout that fired too late to be seen, so it never
 * cancels the next statement; a user's cancel request is left alone.
 *
 * The thread and its list are process-wide state (no allocation: timers
 * are embedded in their Session); the thread starts at the first arming
 * and runs detached for the life of the process, asleep while nothing
 * is armed, with every signal blocked.  If it cannot be started, arming
 * raises 53000.
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "common/elog.h"
#include "tcop/tcop_int.h"

/* Protects the list and every timer's in_list, next and deadline. */
static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
/* Signalled when a timer is pushed (its deadline may be the earliest). */
static pthread_cond_t timer_cond;
static StatementTimer *timer_list;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static bool timer_started;

static bool
deadline_passed(const struct timespec *deadline, const struct timespec *now)
{
    return now->tv_sec > deadline->tv_sec ||
           (now->tv_sec == deadline->tv_sec &&
            now->tv_nsec >= deadline->tv_nsec);
}

static void
unlink_timer(StatementTimer *t)
{
    for (StatementTimer **pp = &timer_list; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    }
    t->next = NULL;
    t->in_list = false;
}

static void *
timer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&timer_lock);
    for (;;) {
        StatementTimer *earliest = NULL;
        struct timespec now;

        clock_gettime(CLOCK_MONOTONIC, &now);
        for (StatementTimer *t = timer_list; t != NULL;) {
            StatementTimer *next = t->next;

            if (deadline_passed(&t->deadline, &now)) {
                /* a pending user cancel keeps its own message */
                int expected = XACT_CANCEL_NONE;

                atomic_compare_exchange_strong(
                    t->flag, &expected, XACT_CANCEL_STATEMENT_TIMEOUT);
                unlink_timer(t);
            } else if (earliest == NULL ||
                       deadline_passed(&earliest->deadline, &t->deadline)) {
                earliest = t;
            }
            t = next;
        }
        if (earliest == NULL)
            pthread_cond_wait(&timer_cond, &timer_lock);
        else
            pthread_cond_timedwait(&timer_cond, &timer_lock,
                                   &earliest->deadline);
    }
    return NULL;
}

/*
 * Start the thread with every signal blocked (it inherits the mask):
 * process-directed signals must go to the threads that expect them --
 * the shell's SIGINT has to interrupt the main thread's read, the
 * server's SIGTERM its accept loop.
 */
static void
timer_start(void)
{
    pthread_condattr_t attr;
    pthread_attr_t tattr;
    pthread_t thread;
    sigset_t all;
    sigset_t old;

    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&timer_cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_attr_init(&tattr);
    pthread_attr_setdetachstate(&tattr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&tattr, 64 * 1024);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    timer_started = pthread_create(&thread, &tattr, timer_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&tattr);
}

void
tdb_stmt_timer_arm(StatementTimer *t, atomic_int *flag, int timeout_ms)
{
    if (t->active || timeout_ms <= 0)
        return;
    pthread_once(&timer_once, timer_start);
    if (!timer_started)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_RESOURCES),
                errmsg("could not start the statement timeout timer"));
    pthread_mutex_lock(&timer_lock);
    t->flag = flag;
    clock_gettime(CLOCK_MONOTONIC, &t->deadline);
    t->deadline.tv_sec += timeout_ms / 1000;
    t->deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (t->deadline.tv_nsec >= 1000000000L) {
        t->deadline.tv_sec++;
        t->deadline.tv_nsec -= 1000000000L;
    }
    t->next = timer_list;
    timer_list = t;
    t->in_list = true;
    pthread_cond_signal(&timer_cond);
    pthread_mutex_unlock(&timer_lock);
    t->active = true;
}

void
tdb_stmt_timer_disarm(StatementTimer *t)
{
    int expected = XACT_CANCEL_STATEMENT_TIMEOUT;

    if (!t->active)
        return;
    pthread_mutex_lock(&timer_lock);
    if (t->in_list)
        unlink_timer(t);
    else
        atomic_compare_exchange_strong(t->flag, &expected, XACT_CANCEL_NONE);
    pthread_mutex_unlock(&timer_lock);
    t->active = false;
}
