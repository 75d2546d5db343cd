/*
 * test_visibility.c -- PostgreSQL's HeapTupleSatisfiesMVCC and
 * HeapTupleSatisfiesUpdate rules on tuple headers built byte by byte.
 *
 * The fixture: a transaction manager whose own session ("own") holds xid
 * 1000 at command 5, a hand-made snapshot
 *     xmin 500, xmax 1500, xip {500, 501, 502}, curcid 5, xact = own
 * and commit-log statuses set directly for these ids:
 *
 *   100  committed long ago          101  aborted
 *   102  crashed (IN_PROGRESS in the log, not running)
 *   500  in xip, still running       501  in xip, committed since
 *   502  in xip, aborted since
 *   600  committed, not in xip       601  aborted, not in xip
 *   2000 committed, but >= xmax (started after the snapshot)
 *   1000 own; cids 3 (< curcid), 5 (= curcid), 7 (> curcid)
 *
 *   test_mvcc_table        ~60 hand-written cases, each naming the rule it
 *       exercises: visibility and exactly which hint bits get set
 *   test_mvcc_semantics    every combination of xmin kind x xmax kind x
 *       (no hint | correct hint) against the declarative definition
 *       "inserted and not deleted"; every hint set is correct, every
 *       examined finished id gets its hint, a second call changes nothing
 *   test_mvcc_wraparound   a snapshot spanning 0xFFFFFFFF -> 3
 *   test_update_table      HeapTupleSatisfiesUpdate's results
 *   test_update_running    TM_BEING_MODIFIED / TM_INVISIBLE against a
 *       real running writer, then TM_UPDATED / TM_DELETED once it commits
 *   test_flow              real transactions end to end: insert, commit,
 *       delete, abort, statement atomicity, command-id visibility
 *   test_combocids         insert + delete in one transaction; combo ids
 *       shared, grown past the initial table, read back
 *   test_unsupported       updating MultiXact xmax, HEAP_MOVED bits
 */
#include "common/base.h"

#include "access/access_int.h"
#include "access/clog.h"
#include "access/combocid.h"
#include "access/heapam_visibility.h"
#include "access/htup_xact.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "access_test.h"

#define X_COMMITTED 100
#define X_ABORTED 101
#define X_CRASHED 102
#define X_XIP_RUNNING 500
#define X_XIP_COMMITTED 501
#define X_XIP_ABORTED 502
#define X_MID_COMMITTED 600
#define X_MID_ABORTED 601
#define X_OWN 1000
#define X_FUTURE 2000
#define CURCID 5

#define XMIN_C HEAP_XMIN_COMMITTED
#define XMIN_I HEAP_XMIN_INVALID
#define XMIN_F HEAP_XMIN_FROZEN
#define XMAX_C HEAP_XMAX_COMMITTED
#define XMAX_I HEAP_XMAX_INVALID
#define LOCK_ONLY (HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_EXCL_LOCK)

typedef struct Fixture {
    DataDir *dd;
    TransactionManager *tm;
    Transaction *own;
    SnapshotData snap;
    TransactionId xip[3];
} Fixture;

static void
fixture_setup(Fixture *f)
{
    static const struct {
        TransactionId xid;
        XidStatus status;
    } statuses[] = {
        {X_COMMITTED, TRANSACTION_STATUS_COMMITTED},
        {X_ABORTED, TRANSACTION_STATUS_ABORTED},
        {X_XIP_COMMITTED, TRANSACTION_STATUS_COMMITTED},
        {X_XIP_ABORTED, TRANSACTION_STATUS_ABORTED},
        {X_MID_COMMITTED, TRANSACTION_STATUS_COMMITTED},
        {X_MID_ABORTED, TRANSACTION_STATUS_ABORTED},
        {X_FUTURE, TRANSACTION_STATUS_COMMITTED},
    };
    Clog *clog;

    f->dd = new_datadir();
    jump_next_xid(f->dd, X_OWN);
    f->tm = tdb_xact_manager_open(f->dd, NULL);
    clog = tdb_xact_manager_clog(f->tm);
    f->own = tdb_xact_create(f->tm, NULL);
    tdb_xact_begin(f->own);
    expect_u64_eq(tdb_xact_assign_xid(f->own), X_OWN);
    for (CommandId cid = 0; cid < CURCID; cid++) {
        (void)tdb_xact_current_command_id(f->own, true);
        tdb_xact_command_counter_increment(f->own);
    }
    for (Size i = 0; i < lengthof(statuses); i++)
        tdb_clog_set_status(clog, statuses[i].xid, statuses[i].status);

    f->xip[0] = X_XIP_RUNNING;
    f->xip[1] = X_XIP_COMMITTED;
    f->xip[2] = X_XIP_ABORTED;
    f->snap.xmin = 500;
    f->snap.xmax = 1500;
    f->snap.xcnt = 3;
    f->snap.xip = f->xip;
    f->snap.xact = f->own;
    f->snap.curxid = X_OWN;
    f->snap.curcid = CURCID;
}

static void
fixture_teardown(Fixture *f)
{
    tdb_xact_abort(f->own);
    tdb_xact_destroy(f->own);
    tdb_xact_manager_close(f->tm);
    tdb_datadir_close(f->dd);
}

/* A heap tuple header with one int4 column, in an aligned buffer. */
typedef struct TupleBuf {
    uint64 words[4];
} TupleBuf;

static HeapTupleHeader
make_tuple(TupleBuf *buf, TransactionId xmin, TransactionId xmax, CommandId cid,
           uint16 infomask)
{
    HeapTupleHeader tup = (HeapTupleHeader)buf->words;

    memset(buf, 0, sizeof(*buf));
    HeapTupleHeaderSetXmin(tup, xmin);
    HeapTupleHeaderSetXmax(tup, xmax);
    tup->t_choice.t_heap.t_field3.t_cid = cid;
    ItemPointerSet(&tup->t_ctid, 0, 1);
    tup->t_infomask2 = 1;
    tup->t_infomask = infomask;
    tup->t_hoff = 24;
    return tup;
}

/*
 * Make tup, inserted by own at cmin (t_cid), deleted by own at cmax: the
 * combo id goes into t_cid, as heap_delete will do it.
 */
static void
own_delete(Fixture *f, HeapTupleHeader tup, CommandId cmax)
{
    bool iscombo;

    tdb_combocid_adjust_cmax(tup, f->own, &cmax, &iscombo);
    HeapTupleHeaderSetCmax(tup, cmax, iscombo);
}

/* ----------------------------------------------------------------------
 * The hand-written table
 * ---------------------------------------------------------------------- */

typedef struct MvccCase {
    const char *rule;
    TransactionId xmin;
    TransactionId xmax;
    CommandId cid;      /* t_cid: cmin, or cmax of another's tuple */
    CommandId own_cmax; /* != 0: own insert at cid, own delete here */
    uint16 infomask;    /* hint and lock bits before */
    bool visible;
    uint16 hints_added; /* bits the call must add, exactly */
} MvccCase;

static const MvccCase mvcc_cases[] = {
    /* --- the inserting transaction (nothing deletes) --- */
    {"xmin committed: visible, hint XMIN_COMMITTED", X_COMMITTED, 0, 0, 0,
     XMAX_I, true, XMIN_C},
    {"xmin committed, hinted: no clog lookup, no new hint", X_COMMITTED, 0, 0,
     0, XMAX_I | XMIN_C, true, 0},
    {"xmin aborted: invisible, hint XMIN_INVALID", X_ABORTED, 0, 0, 0, XMAX_I,
     false, XMIN_I},
    {"xmin aborted, hinted", X_ABORTED, 0, 0, 0, XMAX_I | XMIN_I, false, 0},
    {"xmin crashed (in progress in clog, not running): dead", X_CRASHED, 0, 0,
     0, XMAX_I, false, XMIN_I},
    {"xmin in xip, running: invisible, no hint", X_XIP_RUNNING, 0, 0, 0, XMAX_I,
     false, 0},
    {"xmin in xip, committed since: still invisible, no hint", X_XIP_COMMITTED,
     0, 0, 0, XMAX_I, false, 0},
    {"xmin in xip, committed since, hinted by a newer snapshot: invisible",
     X_XIP_COMMITTED, 0, 0, 0, XMAX_I | XMIN_C, false, 0},
    {"xmin in xip, aborted since: invisible, no hint", X_XIP_ABORTED, 0, 0, 0,
     XMAX_I, false, 0},
    {"xmin between xmin and xmax, not in xip, committed", X_MID_COMMITTED, 0, 0,
     0, XMAX_I, true, XMIN_C},
    {"xmin between xmin and xmax, not in xip, aborted", X_MID_ABORTED, 0, 0, 0,
     XMAX_I, false, XMIN_I},
    {"xmin >= xmax: started after the snapshot", X_FUTURE, 0, 0, 0, XMAX_I,
     false, 0},
    {"xmin >= xmax, hinted committed: still invisible", X_FUTURE, 0, 0, 0,
     XMAX_I | XMIN_C, false, 0},
    {"frozen (hint) beats xip", X_XIP_RUNNING, 0, 0, 0, XMAX_I | XMIN_F, true,
     0},
    {"frozen (hint) beats xmax", X_FUTURE, 0, 0, 0, XMAX_I | XMIN_F, true, 0},
    {"raw FrozenTransactionId: committed, hinted", FrozenTransactionId, 0, 0, 0,
     XMAX_I, true, XMIN_C},
    {"raw BootstrapTransactionId: committed, hinted", BootstrapTransactionId, 0,
     0, 0, XMAX_I, true, XMIN_C},
    {"xmin InvalidTransactionId: dead", InvalidTransactionId, 0, 0, 0, XMAX_I,
     false, XMIN_I},
    {"XMIN_INVALID hint is trusted over the log", X_COMMITTED, 0, 0, 0,
     XMAX_I | XMIN_I, false, 0},
    {"XMIN_COMMITTED hint is trusted over the log", X_ABORTED, 0, 0, 0,
     XMAX_I | XMIN_C, true, 0},

    /* --- own inserts, by command id --- */
    {"own insert by an earlier command: visible", X_OWN, 0, 3, 0, XMAX_I, true,
     0},
    {"own insert by the current command: invisible", X_OWN, 0, CURCID, 0,
     XMAX_I, false, 0},
    {"own insert by a later command: invisible", X_OWN, 0, 7, 0, XMAX_I, false,
     0},
    {"own insert, own delete by an earlier command (combo): invisible", X_OWN,
     X_OWN, 3, 4, 0, false, 0},
    {"own insert, own delete by the current command (combo): visible", X_OWN,
     X_OWN, 3, CURCID, 0, true, 0},
    {"own insert, own delete by a later command (combo): visible", X_OWN, X_OWN,
     3, 7, 0, true, 0},
    {"own insert and delete both later (combo): invisible", X_OWN, X_OWN,
     CURCID, 7, 0, false, 0},
    {"own insert, locked by own: visible", X_OWN, X_OWN, 3, 0, LOCK_ONLY, true,
     0},
    {"own insert, xmax another (aborted) id: dead xmax, hinted", X_OWN,
     X_ABORTED, 3, 0, 0, true, XMAX_I},
    {"own insert, xmax 0 without hint: hinted", X_OWN, 0, 3, 0, 0, true,
     XMAX_I},

    /* --- the deleting transaction (insert committed and hinted) --- */
    {"xmax committed: invisible, hint XMAX_COMMITTED", X_COMMITTED, X_COMMITTED,
     0, 0, XMIN_C, false, XMAX_C},
    {"xmax committed, hinted", X_COMMITTED, X_COMMITTED, 0, 0, XMIN_C | XMAX_C,
     false, 0},
    {"xmax aborted: visible, hint XMAX_INVALID", X_COMMITTED, X_ABORTED, 0, 0,
     XMIN_C, true, XMAX_I},
    {"xmax aborted, hinted", X_COMMITTED, X_ABORTED, 0, 0, XMIN_C | XMAX_I,
     true, 0},
    {"xmax crashed: visible, hinted dead", X_COMMITTED, X_CRASHED, 0, 0, XMIN_C,
     true, XMAX_I},
    {"xmax in xip, running: visible, no hint", X_COMMITTED, X_XIP_RUNNING, 0, 0,
     XMIN_C, true, 0},
    {"xmax in xip, committed since: visible, no hint", X_COMMITTED,
     X_XIP_COMMITTED, 0, 0, XMIN_C, true, 0},
    {"xmax in xip, committed since, hinted by a newer snapshot: visible",
     X_COMMITTED, X_XIP_COMMITTED, 0, 0, XMIN_C | XMAX_C, true, 0},
    {"xmax in xip, aborted since: visible, no hint", X_COMMITTED, X_XIP_ABORTED,
     0, 0, XMIN_C, true, 0},
    {"xmax committed, not in xip, above xmin: invisible", X_COMMITTED,
     X_MID_COMMITTED, 0, 0, XMIN_C, false, XMAX_C},
    {"xmax >= snapshot xmax: visible", X_COMMITTED, X_FUTURE, 0, 0, XMIN_C,
     true, 0},
    {"xmax >= snapshot xmax, hinted committed: visible", X_COMMITTED, X_FUTURE,
     0, 0, XMIN_C | XMAX_C, true, 0},
    {"own delete by an earlier command: invisible", X_COMMITTED, X_OWN, 3, 0,
     XMIN_C, false, 0},
    {"own delete by the current command: visible", X_COMMITTED, X_OWN, CURCID,
     0, XMIN_C, true, 0},
    {"own delete by a later command: visible", X_COMMITTED, X_OWN, 7, 0, XMIN_C,
     true, 0},
    {"xmax committed but LOCK_ONLY: ignored, no hint", X_COMMITTED, X_COMMITTED,
     0, 0, XMIN_C | LOCK_ONLY, true, 0},
    {"xmax running LOCK_ONLY: ignored", X_COMMITTED, X_XIP_RUNNING, 0, 0,
     XMIN_C | HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_KEYSHR_LOCK, true, 0},
    {"pre-9.3 lock (EXCL_LOCK alone): ignored", X_COMMITTED, X_COMMITTED, 0, 0,
     XMIN_C | HEAP_XMAX_EXCL_LOCK, true, 0},
    {"KEYSHR_LOCK without LOCK_ONLY is not a lock: deleted", X_COMMITTED,
     X_COMMITTED, 0, 0, XMIN_C | HEAP_XMAX_KEYSHR_LOCK, false, XMAX_C},
    {"MultiXact that only locks: ignored", X_COMMITTED, 7777, 0, 0,
     XMIN_C | HEAP_XMAX_IS_MULTI | LOCK_ONLY, true, 0},
    {"xmax 0 without XMAX_INVALID: dead, hinted", X_COMMITTED, 0, 0, 0, XMIN_C,
     true, XMAX_I},
    {"XMAX_INVALID hint is trusted over the log", X_COMMITTED, X_COMMITTED, 0,
     0, XMIN_C | XMAX_I, true, 0},

    /* --- both --- */
    {"xmin aborted: xmax never looked at", X_ABORTED, X_COMMITTED, 0, 0, 0,
     false, XMIN_I},
    {"xmin in xip: xmax never looked at", X_XIP_RUNNING, X_COMMITTED, 0, 0, 0,
     false, 0},
    {"both committed unhinted: both hinted, invisible", X_MID_COMMITTED,
     X_MID_COMMITTED, 0, 0, 0, false, XMIN_C | XMAX_C},
    {"xmin committed, xmax aborted, unhinted: both hinted, visible",
     X_MID_COMMITTED, X_MID_ABORTED, 0, 0, 0, true, XMIN_C | XMAX_I},
    {"frozen, deleter in xip: visible", X_COMMITTED, X_XIP_COMMITTED, 0, 0,
     XMIN_F, true, 0},
    {"frozen, deleter committed: invisible, hinted", X_COMMITTED, X_COMMITTED,
     0, 0, XMIN_F, false, XMAX_C},
    {"xmin committed unhinted, own delete earlier: invisible, xmin hinted",
     X_COMMITTED, X_OWN, 3, 0, 0, false, XMIN_C},
};

/* Check one tuple against snap: visibility, hints added, dirty flag, and
 * that a second call agrees and adds nothing. */
static void
check_mvcc(TransactionManager *tm, Snapshot snap, HeapTupleHeader tup,
           const char *rule, bool visible, uint16 hints_added)
{
    uint16 before = tup->t_infomask;
    bool dirty = false;
    bool result = tdb_heap_tuple_satisfies_mvcc(tup, snap, tm, &dirty);
    uint16 added = (uint16)(tup->t_infomask & ~before);

    if (result != visible)
        tdb_test_fail(__FILE__, __LINE__, "%s: visible %d, expected %d", rule,
                      result, visible);
    if (added != hints_added || (tup->t_infomask & before) != before)
        tdb_test_fail(__FILE__, __LINE__,
                      "%s: infomask 0x%04X -> 0x%04X, expected +0x%04X", rule,
                      before, tup->t_infomask, hints_added);
    if (dirty != (hints_added != 0))
        tdb_test_fail(__FILE__, __LINE__, "%s: dirty flag %d", rule, dirty);

    before = tup->t_infomask;
    dirty = false;
    if (tdb_heap_tuple_satisfies_mvcc(tup, snap, tm, &dirty) != visible ||
        tup->t_infomask != before || dirty)
        tdb_test_fail(__FILE__, __LINE__, "%s: second call differs", rule);
}

TEST_BEGIN(test_mvcc_table)
{
    Fixture f;

    fixture_setup(&f);
    for (Size i = 0; i < lengthof(mvcc_cases); i++) {
        const MvccCase *c = &mvcc_cases[i];
        TupleBuf buf;
        HeapTupleHeader tup =
            make_tuple(&buf, c->xmin, c->xmax, c->cid, c->infomask);

        if (c->own_cmax != 0)
            own_delete(&f, tup, c->own_cmax);
        check_mvcc(f.tm, &f.snap, tup, c->rule, c->visible, c->hints_added);
    }
    /* the accumulating flag: left true by an earlier tuple */
    {
        TupleBuf buf;
        HeapTupleHeader tup = make_tuple(&buf, X_COMMITTED, 0, 0, XMAX_I);
        bool dirty = true;

        tup->t_infomask |= XMIN_C;
        expect_true(tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm, &dirty));
        expect_true(dirty);
    }
    fixture_teardown(&f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Every combination against the declarative definition
 * ---------------------------------------------------------------------- */

typedef enum Fate {
    FATE_COMMITTED, /* per the log */
    FATE_DEAD,      /* aborted or crashed */
    FATE_RUNNING,   /* in progress per the log */
    FATE_OWN,       /* the snapshot's own transaction */
    FATE_NONE,      /* xmax 0 */
} Fate;

typedef struct Kind {
    const char *name;
    TransactionId xid;
    CommandId cid; /* for own kinds: cmin or cmax */
    Fate fate;
    bool in_snapshot; /* running for the snapshot (xip or >= xmax) */
    uint16 lock_bits; /* xmax kinds only */
} Kind;

static const Kind xmin_kinds[] = {
    {"committed", X_COMMITTED, 0, FATE_COMMITTED, false, 0},
    {"aborted", X_ABORTED, 0, FATE_DEAD, false, 0},
    {"crashed", X_CRASHED, 0, FATE_DEAD, false, 0},
    {"xip-running", X_XIP_RUNNING, 0, FATE_RUNNING, true, 0},
    {"xip-committed", X_XIP_COMMITTED, 0, FATE_COMMITTED, true, 0},
    {"xip-aborted", X_XIP_ABORTED, 0, FATE_DEAD, true, 0},
    {"mid-committed", X_MID_COMMITTED, 0, FATE_COMMITTED, false, 0},
    {"mid-aborted", X_MID_ABORTED, 0, FATE_DEAD, false, 0},
    {"future", X_FUTURE, 0, FATE_COMMITTED, true, 0},
    {"frozen-xid", FrozenTransactionId, 0, FATE_COMMITTED, false, 0},
    {"own-cmin-3", X_OWN, 3, FATE_OWN, false, 0},
    {"own-cmin-5", X_OWN, CURCID, FATE_OWN, false, 0},
};

static const Kind xmax_kinds[] = {
    {"none", 0, 0, FATE_NONE, false, 0},
    {"committed", X_COMMITTED, 0, FATE_COMMITTED, false, 0},
    {"aborted", X_ABORTED, 0, FATE_DEAD, false, 0},
    {"crashed", X_CRASHED, 0, FATE_DEAD, false, 0},
    {"xip-running", X_XIP_RUNNING, 0, FATE_RUNNING, true, 0},
    {"xip-committed", X_XIP_COMMITTED, 0, FATE_COMMITTED, true, 0},
    {"xip-aborted", X_XIP_ABORTED, 0, FATE_DEAD, true, 0},
    {"mid-committed", X_MID_COMMITTED, 0, FATE_COMMITTED, false, 0},
    {"mid-aborted", X_MID_ABORTED, 0, FATE_DEAD, false, 0},
    {"future", X_FUTURE, 0, FATE_COMMITTED, true, 0},
    {"own-cmax-4", X_OWN, 4, FATE_OWN, false, 0},
    {"own-cmax-5", X_OWN, CURCID, FATE_OWN, false, 0},
    {"own-cmax-6", X_OWN, 6, FATE_OWN, false, 0},
    {"lock-committed", X_COMMITTED, 0, FATE_COMMITTED, false, LOCK_ONLY},
    {"lock-running", X_XIP_RUNNING, 0, FATE_RUNNING, true,
     HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_KEYSHR_LOCK},
};

/* The hint bits a kind may correctly carry (0 if none may). */
static uint16
correct_hint(const Kind *k, bool is_xmin)
{
    if (k->fate == FATE_COMMITTED)
        return is_xmin ? XMIN_C : XMAX_C;
    if (k->fate == FATE_DEAD || k->fate == FATE_NONE)
        return is_xmin ? XMIN_I : XMAX_I;
    return 0;
}

/* "Has this id's effect happened, for the snapshot?" */
static bool
effective(const Kind *k)
{
    if (k->fate == FATE_OWN)
        return k->cid < CURCID;
    return k->fate == FATE_COMMITTED && !k->in_snapshot;
}

/* Is the pair possible at all?  Nobody else can delete (or lock) a row
 * our transaction inserted and has not committed; an own delete comes at
 * or after the own insert. */
static bool
combination_possible(const Kind *mn, const Kind *mx)
{
    if (mn->fate == FATE_OWN && mx->fate != FATE_OWN && mx->fate != FATE_NONE)
        return false;
    if (mn->fate == FATE_OWN && mx->fate == FATE_OWN && mx->cid < mn->cid)
        return false;
    return true;
}

TEST_BEGIN(test_mvcc_semantics)
{
    Fixture f;
    int ncombinations = 0;

    fixture_setup(&f);
    for (Size i = 0; i < lengthof(xmin_kinds); i++) {
        for (Size j = 0; j < lengthof(xmax_kinds); j++) {
            const Kind *mn = &xmin_kinds[i];
            const Kind *mx = &xmax_kinds[j];

            if (!combination_possible(mn, mx))
                continue;
            for (int mn_hint = 0; mn_hint < 2; mn_hint++) {
                for (int mx_hint = 0; mx_hint < 2; mx_hint++) {
                    uint16 hint_min = mn_hint ? correct_hint(mn, true) : 0;
                    uint16 hint_max = mx_hint ? correct_hint(mx, false) : 0;
                    bool inserted = effective(mn);
                    bool deleted = mx->lock_bits == 0 && effective(mx);
                    bool visible = inserted && !deleted;
                    bool xmax_examined;
                    uint16 before, added;
                    bool dirty = false;
                    TupleBuf buf;
                    HeapTupleHeader tup;
                    char name[160];

                    if ((mn_hint && hint_min == 0) ||
                        (mx_hint && hint_max == 0))
                        continue; /* no correct hint to try */
                    if (mx->lock_bits != 0 && mx_hint)
                        continue; /* hint bits on lock-only xmax: not
                                   * set by MVCC checks */
                    snprintf(name, sizeof(name), "xmin %s%s / xmax %s%s",
                             mn->name, mn_hint ? "+hint" : "", mx->name,
                             mx_hint ? "+hint" : "");
                    tup = make_tuple(&buf, mn->xid, mx->xid,
                                     mn->fate == FATE_OWN ? mn->cid : mx->cid,
                                     hint_min | hint_max | mx->lock_bits);
                    if (mn->fate == FATE_OWN && mx->fate == FATE_OWN)
                        own_delete(&f, tup, mx->cid);
                    before = tup->t_infomask;
                    ncombinations++;

                    if (tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm,
                                                      &dirty) != visible)
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: expected %svisible", name,
                                      visible ? "" : "in");
                    added = (uint16)(tup->t_infomask & ~before);
                    if (dirty != (added != 0))
                        tdb_test_fail(__FILE__, __LINE__, "%s: dirty flag",
                                      name);
                    /* every hint added is true and about a finished id
                     * the snapshot does not consider running */
                    if ((added & XMIN_C) &&
                        !(mn->fate == FATE_COMMITTED && !mn->in_snapshot))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: wrong XMIN_COMMITTED", name);
                    if ((added & XMIN_I) &&
                        !(mn->fate == FATE_DEAD && !mn->in_snapshot))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: wrong XMIN_INVALID", name);
                    if ((added & XMAX_C) &&
                        !(mx->fate == FATE_COMMITTED && !mx->in_snapshot))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: wrong XMAX_COMMITTED", name);
                    if ((added & XMAX_I) &&
                        !((mx->fate == FATE_DEAD || mx->fate == FATE_NONE) &&
                          !mx->in_snapshot))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: wrong XMAX_INVALID", name);
                    if (added & ~(XMIN_C | XMIN_I | XMAX_C | XMAX_I))
                        tdb_test_fail(__FILE__, __LINE__, "%s: bits 0x%04X",
                                      name, added);
                    /* every examined finished id gets its hint: xmin
                     * always (unless own), xmax once the insert is
                     * visible and xmax is not a lock */
                    if (!mn_hint && mn->fate != FATE_OWN && !mn->in_snapshot &&
                        (mn->fate == FATE_COMMITTED || mn->fate == FATE_DEAD) &&
                        !(added & (XMIN_C | XMIN_I)))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: xmin left unhinted", name);
                    xmax_examined =
                        inserted && mx->lock_bits == 0 && mn->fate != FATE_OWN;
                    if (!mx_hint && xmax_examined && !mx->in_snapshot &&
                        mx->fate != FATE_OWN && mx->fate != FATE_RUNNING &&
                        !(added & (XMAX_C | XMAX_I)))
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: xmax left unhinted", name);

                    /* the second call: same answer, nothing new */
                    before = tup->t_infomask;
                    dirty = false;
                    if (tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm,
                                                      &dirty) != visible ||
                        tup->t_infomask != before || dirty)
                        tdb_test_fail(__FILE__, __LINE__,
                                      "%s: second call differs", name);
                }
            }
        }
    }
    expect_true(ncombinations > 300);
    fixture_teardown(&f);
}
TEST_END

TEST_BEGIN(test_mvcc_wraparound)
{
    static const struct {
        TransactionId xid;
        XidStatus status;
        bool visible;
    } cases[] = {
        {0xFFFFFE00, TRANSACTION_STATUS_COMMITTED, true},  /* < xmin */
        {0xFFFFFE01, TRANSACTION_STATUS_ABORTED, false},   /* < xmin */
        {0xFFFFFF00, TRANSACTION_STATUS_COMMITTED, false}, /* in xip */
        {0xFFFFFF80, TRANSACTION_STATUS_COMMITTED, true},  /* mid */
        {0xFFFFFFFF, TRANSACTION_STATUS_COMMITTED, true},  /* mid */
        {5, TRANSACTION_STATUS_IN_PROGRESS, false},        /* in xip */
        {10, TRANSACTION_STATUS_COMMITTED, true},          /* mid, wrapped */
        {20, TRANSACTION_STATUS_COMMITTED, false},         /* = xmax */
        {25, TRANSACTION_STATUS_COMMITTED, false},         /* > xmax */
    };
    Fixture f;
    Clog *clog;
    TransactionId xip[2] = {0xFFFFFF00, 5};
    SnapshotData snap;

    fixture_setup(&f);
    clog = tdb_xact_manager_clog(f.tm);
    /* the previous epoch's last page, as it would be on disk */
    make_clog_page(f.dd, 0xFFFFFE00);
    for (Size i = 0; i < lengthof(cases); i++) {
        tdb_clog_extend(clog, cases[i].xid);
        tdb_clog_set_status(clog, cases[i].xid, cases[i].status);
    }
    snap = f.snap;
    snap.xmin = 0xFFFFFF00;
    snap.xmax = 20;
    snap.xcnt = 2;
    snap.xip = xip;
    snap.xact = NULL;
    snap.curxid = InvalidTransactionId;
    for (Size i = 0; i < lengthof(cases); i++) {
        TupleBuf buf;
        HeapTupleHeader tup = make_tuple(&buf, cases[i].xid, 0, 0, XMAX_I);
        bool dirty = false;
        bool finished = cases[i].status != TRANSACTION_STATUS_IN_PROGRESS;
        bool in_snap = XidInMVCCSnapshot(&snap, cases[i].xid);

        expect_int_eq(tdb_heap_tuple_satisfies_mvcc(tup, &snap, f.tm, &dirty),
                      cases[i].visible);
        expect_int_eq(dirty, finished && !in_snap);
    }
    /* an old committed deleter across the wrap */
    {
        TupleBuf buf;
        HeapTupleHeader tup = make_tuple(&buf, 0xFFFFFE00, 10, 0, 0);
        bool dirty = false;

        expect_false(tdb_heap_tuple_satisfies_mvcc(tup, &snap, f.tm, &dirty));
        expect_u64_eq(tup->t_infomask, XMIN_C | XMAX_C);
        tup = make_tuple(&buf, 0xFFFFFE00, 25, 0, 0);
        expect_true(tdb_heap_tuple_satisfies_mvcc(tup, &snap, f.tm, &dirty));
        expect_u64_eq(tup->t_infomask, XMIN_C);
    }
    fixture_teardown(&f);
}
TEST_END

/* ----------------------------------------------------------------------
 * HeapTupleSatisfiesUpdate
 * ---------------------------------------------------------------------- */

typedef struct UpdateCase {
    const char *rule;
    TransactionId xmin;
    TransactionId xmax;
    CommandId cid;
    CommandId own_cmax; /* != 0: own insert at cid, own delete here */
    uint16 infomask;
    bool ctid_self; /* t_ctid points to the tuple itself */
    TM_Result result;
    uint16 hints_added;
} UpdateCase;

static const UpdateCase update_cases[] = {
    {"plain committed row", X_COMMITTED, 0, 0, 0, XMIN_C | XMAX_I, true, TM_OK,
     0},
    {"xmin committed, unhinted", X_COMMITTED, 0, 0, 0, XMAX_I, true, TM_OK,
     XMIN_C},
    {"xmin aborted", X_ABORTED, 0, 0, 0, XMAX_I, true, TM_INVISIBLE, XMIN_I},
    {"xmin crashed", X_CRASHED, 0, 0, 0, XMAX_I, true, TM_INVISIBLE, XMIN_I},
    {"xmin hinted invalid", X_COMMITTED, 0, 0, 0, XMIN_I | XMAX_I, true,
     TM_INVISIBLE, 0},
    {"no snapshot: xmin committed after ours counts", X_XIP_COMMITTED, 0, 0, 0,
     XMAX_I, true, TM_OK, XMIN_C},
    {"no snapshot: xmin that started later counts too", X_FUTURE, 0, 0, 0,
     XMAX_I, true, TM_OK, XMIN_C},
    {"frozen", X_XIP_COMMITTED, 0, 0, 0, XMIN_F | XMAX_I, true, TM_OK, 0},
    {"own insert, earlier command", X_OWN, 0, 3, 0, XMAX_I, true, TM_OK, 0},
    {"own insert, current command", X_OWN, 0, CURCID, 0, XMAX_I, true,
     TM_INVISIBLE, 0},
    {"own insert, own delete earlier", X_OWN, X_OWN, 3, 4, 0, true,
     TM_INVISIBLE, 0},
    {"own insert, own delete now", X_OWN, X_OWN, 3, CURCID, 0, true,
     TM_SELF_MODIFIED, 0},
    {"own insert, own delete later", X_OWN, X_OWN, 3, 7, 0, true,
     TM_SELF_MODIFIED, 0},
    {"own insert, another (aborted) xmax", X_OWN, X_ABORTED, 3, 0, 0, true,
     TM_OK, XMAX_I},
    {"own insert, locked by own: own id is in progress", X_OWN, X_OWN, 3, 0,
     LOCK_ONLY, true, TM_BEING_MODIFIED, 0},
    {"own insert, lock by a finished locker", X_OWN, X_COMMITTED, 3, 0,
     LOCK_ONLY, true, TM_OK, 0},
    {"own insert, MultiXact lock", X_OWN, 7777, 3, 0,
     LOCK_ONLY | HEAP_XMAX_IS_MULTI, true, TM_OK, 0},
    {"deleted by a committed transaction", X_COMMITTED, X_COMMITTED, 0, 0,
     XMIN_C, true, TM_DELETED, XMAX_C},
    {"updated by a committed transaction", X_COMMITTED, X_COMMITTED, 0, 0,
     XMIN_C, false, TM_UPDATED, XMAX_C},
    {"updated, hinted", X_COMMITTED, X_COMMITTED, 0, 0, XMIN_C | XMAX_C, false,
     TM_UPDATED, 0},
    {"deleted, hinted", X_COMMITTED, X_COMMITTED, 0, 0, XMIN_C | XMAX_C, true,
     TM_DELETED, 0},
    {"no snapshot: deleter that committed after ours counts", X_COMMITTED,
     X_XIP_COMMITTED, 0, 0, XMIN_C, false, TM_UPDATED, XMAX_C},
    {"deleter aborted", X_COMMITTED, X_ABORTED, 0, 0, XMIN_C, true, TM_OK,
     XMAX_I},
    {"deleter crashed", X_COMMITTED, X_CRASHED, 0, 0, XMIN_C, true, TM_OK,
     XMAX_I},
    {"xmax hinted invalid", X_COMMITTED, X_COMMITTED, 0, 0, XMIN_C | XMAX_I,
     true, TM_OK, 0},
    {"committed locker: lock gone, hinted dead", X_COMMITTED, X_COMMITTED, 0, 0,
     XMIN_C | LOCK_ONLY, true, TM_OK, XMAX_I},
    {"committed locker, hinted committed", X_COMMITTED, X_COMMITTED, 0, 0,
     XMIN_C | XMAX_C | LOCK_ONLY, true, TM_OK, 0},
    {"MultiXact locker: none can run", X_COMMITTED, 7777, 0, 0,
     XMIN_C | LOCK_ONLY | HEAP_XMAX_IS_MULTI, true, TM_OK, XMAX_I},
    {"own delete, earlier command", X_COMMITTED, X_OWN, 3, 0, XMIN_C, true,
     TM_INVISIBLE, 0},
    {"own delete, current command", X_COMMITTED, X_OWN, CURCID, 0, XMIN_C, true,
     TM_SELF_MODIFIED, 0},
    {"own lock", X_COMMITTED, X_OWN, 3, 0, XMIN_C | LOCK_ONLY, true,
     TM_BEING_MODIFIED, 0},
};

static void
check_update(Fixture *f, const UpdateCase *c)
{
    TupleBuf buf;
    HeapTupleData htup;
    HeapTupleHeader tup =
        make_tuple(&buf, c->xmin, c->xmax, c->cid, c->infomask);
    uint16 before;
    bool dirty = false;
    TM_Result result;

    if (c->own_cmax != 0)
        own_delete(f, tup, c->own_cmax);
    htup.t_len = 28;
    htup.t_tableOid = 16384;
    htup.t_data = tup;
    ItemPointerSet(&htup.t_self, 0, 1);
    if (!c->ctid_self)
        ItemPointerSet(&tup->t_ctid, 3, 7);
    before = tup->t_infomask;
    result =
        tdb_heap_tuple_satisfies_update(&htup, CURCID, f->own, f->tm, &dirty);
    if (result != c->result)
        tdb_test_fail(__FILE__, __LINE__, "%s: result %d, expected %d", c->rule,
                      result, c->result);
    if ((uint16)(tup->t_infomask & ~before) != c->hints_added)
        tdb_test_fail(__FILE__, __LINE__,
                      "%s: infomask 0x%04X -> 0x%04X, expected +0x%04X",
                      c->rule, before, tup->t_infomask, c->hints_added);
    if (dirty != (c->hints_added != 0))
        tdb_test_fail(__FILE__, __LINE__, "%s: dirty flag", c->rule);
}

TEST_BEGIN(test_update_table)
{
    Fixture f;

    fixture_setup(&f);
    for (Size i = 0; i < lengthof(update_cases); i++)
        check_update(&f, &update_cases[i]);
    fixture_teardown(&f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Real transactions
 * ---------------------------------------------------------------------- */

/* A tuple as heap_insert will write it: xmin, cmin, XMAX_INVALID. */
static HeapTupleHeader
insert_tuple(TupleBuf *buf, Transaction *xact)
{
    TransactionId xid = tdb_xact_assign_xid(xact);
    HeapTupleHeader tup = make_tuple(buf, xid, 0, 0, XMAX_I);

    HeapTupleHeaderSetCmin(tup, tdb_xact_current_command_id(xact, true));
    return tup;
}

/* Stamp tup deleted by xact, as heap_delete will. */
static void
delete_tuple(HeapTupleHeader tup, Transaction *xact)
{
    TransactionId xid = tdb_xact_assign_xid(xact);
    CommandId cmax = tdb_xact_current_command_id(xact, true);
    bool iscombo;

    tdb_combocid_adjust_cmax(tup, xact, &cmax, &iscombo);
    HeapTupleHeaderSetXmax(tup, xid);
    tup->t_infomask &=
        (uint16) ~(XMAX_C | XMAX_I | HEAP_XMAX_LOCK_ONLY | HEAP_LOCK_MASK);
    HeapTupleHeaderSetCmax(tup, cmax, iscombo);
}

static bool
visible(TransactionManager *tm, Snapshot snap, HeapTupleHeader tup, bool *dirty)
{
    return tdb_heap_tuple_satisfies_mvcc(tup, snap, tm, dirty);
}

TEST_BEGIN(test_flow)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    MemoryContext cxt = tdb_current_mcxt;
    Transaction *a = tdb_xact_create(tm, NULL);
    Transaction *b = tdb_xact_create(tm, NULL);
    Transaction *r = tdb_xact_create(tm, NULL);
    TupleBuf buf, buf2;
    HeapTupleHeader tup, tup2;
    Snapshot s1, s2, s3, s4, s5, sa;
    bool dirty = false;

    /* a inserts; nobody else sees it, a sees it from its next command */
    tdb_xact_begin(a);
    tup = insert_tuple(&buf, a);
    tdb_xact_begin(r);
    s1 = tdb_snapshot_take(tm, r, cxt);
    expect_false(visible(tm, s1, tup, &dirty));
    sa = tdb_snapshot_take(tm, a, cxt);
    expect_false(visible(tm, sa, tup, &dirty)); /* same command */
    tdb_xact_command_counter_increment(a);
    sa = tdb_snapshot_take(tm, a, cxt);
    expect_true(visible(tm, sa, tup, &dirty));
    expect_false(dirty);

    /* a commits: old snapshots still don't see it, new ones do */
    expect_true(tdb_xact_commit(a));
    expect_false(visible(tm, s1, tup, &dirty));
    expect_false(dirty); /* no hint from a snapshot that saw a running */
    s2 = tdb_snapshot_take(tm, r, cxt);
    expect_true(visible(tm, s2, tup, &dirty));
    expect_true(dirty);
    expect_u64_eq(tup->t_infomask & (XMIN_C | XMIN_I), XMIN_C);
    /* a REPEATABLE READ copy of s1 keeps not seeing it */
    expect_false(visible(tm, tdb_snapshot_copy(s1, cxt), tup, &dirty));

    /* b deletes; b sees the delete from its next command */
    tdb_xact_begin(b);
    delete_tuple(tup, b);
    expect_true(visible(tm, s2, tup, &dirty));
    s3 = tdb_snapshot_take(tm, b, cxt);
    expect_true(visible(tm, s3, tup, &dirty)); /* the deleting command */
    tdb_xact_command_counter_increment(b);
    s3->curcid = tdb_xact_current_command_id(b, false); /* RR-style */
    expect_false(visible(tm, s3, tup, &dirty));
    expect_true(visible(tm, tdb_snapshot_take(tm, r, cxt), tup, &dirty));

    /* b aborts: the row is back, its xmax hinted dead */
    tdb_xact_abort(b);
    dirty = false;
    s4 = tdb_snapshot_take(tm, r, cxt);
    expect_true(visible(tm, s4, tup, &dirty));
    expect_true(dirty);
    expect_true(tup->t_infomask & XMAX_I);

    /* a deletes it for good */
    tdb_xact_begin(a);
    delete_tuple(tup, a);
    expect_true(visible(tm, s4, tup, &dirty));
    expect_true(tdb_xact_commit(a));
    expect_true(visible(tm, s4, tup, &dirty)); /* s4 predates the delete */
    dirty = false;
    s5 = tdb_snapshot_take(tm, r, cxt);
    expect_false(visible(tm, s5, tup, &dirty));
    expect_true(dirty);
    expect_true(tup->t_infomask & XMAX_C);

    /* statement-level atomicity: a failed statement's rows are dead at
     * once for everybody, and the block accepts only ROLLBACK */
    tdb_xact_begin(a);
    tup2 = insert_tuple(&buf2, a);
    tdb_xact_fail(a);
    dirty = false;
    expect_false(visible(tm, tdb_snapshot_take(tm, r, cxt), tup2, &dirty));
    expect_true(dirty);
    expect_true(tup2->t_infomask & XMIN_I);
    expect_error(tdb_xact_assign_xid(a), ERRCODE_IN_FAILED_SQL_TRANSACTION,
                 "current transaction is aborted");
    tdb_xact_abort(a);
    tdb_xact_abort(r);

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_destroy(r);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_update_running)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *w = tdb_xact_create(tm, NULL);
    Transaction *r = tdb_xact_create(tm, NULL);
    TupleBuf buf, buf2;
    HeapTupleData htup, htup2;
    bool dirty = false;

    /* committed row, then w (running) deletes it */
    tdb_xact_begin(w);
    htup.t_data = insert_tuple(&buf, w);
    ItemPointerSet(&htup.t_self, 0, 1);
    expect_true(tdb_xact_commit(w));
    tdb_xact_begin(w);
    tdb_xact_begin(r);
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup, 0, r, tm, &dirty),
                  TM_OK);
    expect_true(dirty); /* xmin hinted */
    delete_tuple(htup.t_data, w);
    ItemPointerSet(&htup.t_data->t_ctid, 0, 2); /* an update */
    /* and inserts another one */
    htup2.t_data = insert_tuple(&buf2, w);
    ItemPointerSet(&htup2.t_self, 0, 2);

    dirty = false;
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup, 0, r, tm, &dirty),
                  TM_BEING_MODIFIED);
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup2, 0, r, tm, &dirty),
                  TM_INVISIBLE);
    expect_false(dirty); /* nothing known yet */
    /* w itself, at its next command */
    tdb_xact_command_counter_increment(w);
    expect_int_eq(
        tdb_heap_tuple_satisfies_update(
            &htup, tdb_xact_current_command_id(w, false), w, tm, &dirty),
        TM_INVISIBLE);
    expect_int_eq(
        tdb_heap_tuple_satisfies_update(
            &htup2, tdb_xact_current_command_id(w, false), w, tm, &dirty),
        TM_OK);
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup, 0, w, tm, &dirty),
                  TM_SELF_MODIFIED);

    /* w commits: the old version was updated, the new one is fine */
    expect_true(tdb_xact_commit(w));
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup, 0, r, tm, &dirty),
                  TM_UPDATED);
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup2, 0, r, tm, &dirty),
                  TM_OK);
    ItemPointerSet(&htup.t_data->t_ctid, 0, 1); /* as if deleted */
    expect_int_eq(tdb_heap_tuple_satisfies_update(&htup, 0, r, tm, &dirty),
                  TM_DELETED);
    tdb_xact_abort(r);

    tdb_xact_destroy(w);
    tdb_xact_destroy(r);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_combocids)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = tdb_xact_create(tm, NULL);
    TupleBuf bufs[3];
    HeapTupleHeader tups[3];
    TupleBuf many[200];
    Snapshot s;
    bool dirty = false;

    /* insert three rows at command 0, delete two at command 1 */
    tdb_xact_begin(a);
    for (int i = 0; i < 3; i++)
        tups[i] = insert_tuple(&bufs[i], a);
    tdb_xact_command_counter_increment(a);
    delete_tuple(tups[0], a);
    delete_tuple(tups[1], a);
    expect_true(tups[0]->t_infomask & HEAP_COMBOCID);
    expect_u64_eq(HeapTupleHeaderGetRawCommandId(tups[0]), 0); /* combo 0 */
    expect_u64_eq(HeapTupleHeaderGetRawCommandId(tups[1]), 0); /* shared */
    expect_u64_eq(tdb_combocid_get_cmin(tups[0], a), 0);
    expect_u64_eq(tdb_combocid_get_cmax(tups[0], a), 1);
    expect_false(tups[2]->t_infomask & HEAP_COMBOCID);
    expect_u64_eq(tdb_combocid_get_cmin(tups[2], a), 0);

    /* command 1 still sees the deleted rows, command 2 does not */
    s = tdb_snapshot_take(tm, a, tdb_current_mcxt);
    expect_u64_eq(s->curcid, 1);
    expect_true(visible(tm, s, tups[0], &dirty));
    expect_true(visible(tm, s, tups[2], &dirty));
    tdb_xact_command_counter_increment(a);
    s->curcid = 2;
    expect_false(visible(tm, s, tups[0], &dirty));
    expect_true(visible(tm, s, tups[2], &dirty));
    s->curcid = 0;
    expect_false(visible(tm, s, tups[0], &dirty)); /* not yet inserted */

    /* many distinct (cmin, cmax) pairs: the table grows */
    for (int i = 0; i < 200; i++) {
        HeapTupleHeader t = make_tuple(&many[i], tdb_xact_current_xid(a), 0,
                                       (CommandId)i, XMAX_I);
        CommandId cmax = (CommandId)(1000 + i);
        bool iscombo;

        tdb_combocid_adjust_cmax(t, a, &cmax, &iscombo);
        expect_true(iscombo);
        expect_u64_eq(cmax, (CommandId)(i + 1)); /* combo 0 is (0, 1) */
        HeapTupleHeaderSetXmax(t, tdb_xact_current_xid(a));
        HeapTupleHeaderSetCmax(t, cmax, iscombo);
    }
    for (int i = 0; i < 200; i++) {
        HeapTupleHeader t = (HeapTupleHeader)many[i].words;
        CommandId again = (CommandId)(1000 + i);
        bool iscombo;

        expect_u64_eq(tdb_combocid_get_cmin(t, a), (CommandId)i);
        expect_u64_eq(tdb_combocid_get_cmax(t, a), (CommandId)(1000 + i));
        /* the same pair maps to the same id */
        t->t_infomask &= (uint16)~HEAP_COMBOCID;
        t->t_choice.t_heap.t_field3.t_cid = (CommandId)i;
        tdb_combocid_adjust_cmax(t, a, &again, &iscombo);
        expect_u64_eq(again, (CommandId)(i + 1));
    }
    /* an unknown combo id is corruption, not a crash */
    ((HeapTupleHeader)many[0].words)->t_infomask |= HEAP_COMBOCID;
    ((HeapTupleHeader)many[0].words)->t_choice.t_heap.t_field3.t_cid = 5000;
    expect_error(tdb_combocid_get_cmin((HeapTupleHeader)many[0].words, a),
                 ERRCODE_DATA_CORRUPTED, "unknown combo command id 5000");

    /* a row another transaction inserted needs no combo id */
    {
        TupleBuf other;
        HeapTupleHeader t =
            make_tuple(&other, FrozenTransactionId, 0, 9, XMAX_I);
        CommandId cmax = 4;
        bool iscombo = true;

        tdb_combocid_adjust_cmax(t, a, &cmax, &iscombo);
        expect_false(iscombo);
        expect_u64_eq(cmax, 4);
    }

    /* after commit: both committed, the row is gone for everybody */
    expect_true(tdb_xact_commit(a));
    s = tdb_snapshot_take(tm, NULL, tdb_current_mcxt);
    dirty = false;
    expect_false(visible(tm, s, tups[0], &dirty));
    expect_true(dirty);
    expect_u64_eq(tups[0]->t_infomask & (XMIN_C | XMAX_C), XMIN_C | XMAX_C);
    expect_true(visible(tm, s, tups[2], &dirty));
    /* and the next transaction starts with an empty table */
    tdb_xact_begin(a);
    {
        TupleBuf t2;
        HeapTupleHeader t = insert_tuple(&t2, a);
        CommandId cmax = 3;
        bool iscombo;

        tdb_combocid_adjust_cmax(t, a, &cmax, &iscombo);
        expect_true(iscombo);
        expect_u64_eq(cmax, 0);
    }
    tdb_xact_abort(a);

    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_unsupported)
{
    Fixture f;
    TupleBuf buf;
    HeapTupleHeader tup;
    HeapTupleData htup;
    bool dirty = false;

    fixture_setup(&f);
    tup = make_tuple(&buf, X_COMMITTED, 7777, 0, XMIN_C | HEAP_XMAX_IS_MULTI);
    expect_error(tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm, &dirty),
                 ERRCODE_DATA_CORRUPTED,
                 "tuple has MultiXactId 7777 as xmax, which is not supported");
    htup.t_data = tup;
    ItemPointerSet(&htup.t_self, 0, 1);
    expect_error(
        tdb_heap_tuple_satisfies_update(&htup, CURCID, f.own, f.tm, &dirty),
        ERRCODE_DATA_CORRUPTED, "MultiXactId 7777");
    tup = make_tuple(&buf, X_COMMITTED, 0, 0, XMAX_I | HEAP_MOVED_OFF);
    expect_error(tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm, &dirty),
                 ERRCODE_DATA_CORRUPTED, "pre-9.0 VACUUM FULL");
    /* hinted tuples never look at the bits */
    tup->t_infomask |= XMIN_C;
    expect_true(tdb_heap_tuple_satisfies_mvcc(tup, &f.snap, f.tm, &dirty));
    expect_false(dirty);
    fixture_teardown(&f);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "access_visibility",
                     TEST_CASE(test_mvcc_table), TEST_CASE(test_mvcc_semantics),
                     TEST_CASE(test_mvcc_wraparound),
                     TEST_CASE(test_update_table),
                     TEST_CASE(test_update_running), TEST_CASE(test_flow),
                     TEST_CASE(test_combocids), TEST_CASE(test_unsupported));
}
