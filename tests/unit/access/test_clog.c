/*
 * test_clog.c -- the commit log: PostgreSQL's pg_xact layout, round trips
 * across page and segment boundaries, persistence, unwritten pages,
 * wraparound, durability and injected I/O faults.
 *
 *   test_byte_layout          four xids per byte, lowest xid in the lowest
 *       bits, PostgreSQL's status values -- checked on the file's bytes
 *   test_boundaries           xids around page (32768) and segment
 *       (1048576) boundaries land in the right file at the right offset
 *       and survive close/reopen
 *   test_random_model         random statuses over 40 pages (more than the
 *       cache holds) against an array model, before and after reopen
 *   test_missing_pages        a page is on disk before any of its ids
 *       may be handed out, so a missing or short one is an error
 *       (PostgreSQL's codes and slru.c's messages: at open, and for an
 *       old segment later); only never-reserved pages read as zeros

 *   test_wraparound           the last segment (0FFF), then page 0 reused
 *       and zeroed for the new epoch
 *   test_durable_fsync        a durable set fsyncs (and the directory for
 *       a new segment), a cached set does not; a failed fsync leaves the
 *       status unchanged in memory
 *   test_durable_fault_loop   fail each open/write/fsync/close of
 *       reserving an id's page and of its durable set in turn: nothing
 *       reserved or reported, retry works, persisted
 *   test_read_and_evict_faults  a failed page read or eviction write
 *       raises cleanly and loses nothing
 *   test_noerror              the error-recovery variant warns instead of
 *       raising
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>

#include "access/clog.h"
#include "access/transam.h"
#include "storage/datadir.h"
#include "storage/fd.h"
#include "access_test.h"

#define XACTS_PER_PAGE ((TransactionId)CLOG_XACTS_PER_PAGE)
#define XACTS_PER_SEG ((TransactionId)CLOG_XACTS_PER_SEGMENT)

/* "<datadir>/pg_xact/<name>" */
static char *
xact_file(DataDir *dd, const char *name)
{
    return test_path(test_path(tdb_datadir_path(dd), CLOG_DIR), name);
}

/* A durable set; true if it raised (the error in *e). */
static bool
set_durable_raised(Clog *clog, TransactionId xid, XidStatus status,
                   ErrorData *e)
{
    RETURN_CAUGHT(tdb_clog_set_status_durable(clog, xid, status), e);
}

/* Extend the log to xid; true if that raised (the error in *e). */
static bool
extend_raised(Clog *clog, TransactionId xid, ErrorData *e)
{
    RETURN_CAUGHT(tdb_clog_extend(clog, xid), e);
}

static bool
open_raised(DataDir *dd, Clog **clog, ErrorData *e)
{
    RETURN_CAUGHT(*clog = tdb_clog_open(dd, NULL), e);
}

/* Open dd's commit log; NULL with the error in *e if that fails. */
static Clog *
try_open(DataDir *dd, ErrorData *e)
{
    Clog *clog = NULL;

    return open_raised(dd, &clog, e) ? NULL : clog;
}

TEST_BEGIN(test_byte_layout)
{
    DataDir *dd = new_datadir();
    Clog *clog = tdb_clog_open(dd, NULL);
    char *seg0 = xact_file(dd, "0000");

    expect_true(file_exists(test_path(tdb_datadir_path(dd), "pg_xact")));
    expect_false(file_exists(seg0)); /* nothing written yet */
    for (TransactionId xid = 3; xid <= 12; xid++)
        tdb_clog_extend(clog, xid);
    tdb_clog_set_status(clog, 3, TRANSACTION_STATUS_COMMITTED);
    tdb_clog_set_status(clog, 4, TRANSACTION_STATUS_ABORTED);
    tdb_clog_set_status(clog, 5, TRANSACTION_STATUS_COMMITTED);
    tdb_clog_set_status(clog, 6, TRANSACTION_STATUS_SUB_COMMITTED);
    tdb_clog_set_status(clog, 11, TRANSACTION_STATUS_ABORTED);
    expect_int_eq(tdb_clog_get_status(clog, 3), TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);
    expect_int_eq(tdb_clog_get_status(clog, 5), TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, 6),
                  TRANSACTION_STATUS_SUB_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, 7), TRANSACTION_STATUS_IN_PROGRESS);
    expect_int_eq(tdb_clog_get_status(clog, 11), TRANSACTION_STATUS_ABORTED);
    tdb_clog_flush(clog);

    /* xid x: byte x / 4, bits 2 * (x % 4) -- PostgreSQL's layout */
    expect_int_eq(file_byte(seg0, 0), 0x01 << 6);                    /* 3 */
    expect_int_eq(file_byte(seg0, 1), 0x02 | 0x01 << 2 | 0x03 << 4); /* 4-7 */
    expect_int_eq(file_byte(seg0, 2), 0x02 << 6);                    /* 11 */
    expect_int_eq(file_byte(seg0, 3), 0);
    expect_int_eq(file_size(seg0), BLCKSZ);

    /* overwriting a status keeps the neighbours */
    tdb_clog_set_status(clog, 5, TRANSACTION_STATUS_ABORTED);
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);
    expect_int_eq(tdb_clog_get_status(clog, 5), TRANSACTION_STATUS_ABORTED);
    expect_int_eq(tdb_clog_get_status(clog, 6),
                  TRANSACTION_STATUS_SUB_COMMITTED);
    tdb_clog_close(clog);
    expect_int_eq(file_byte(seg0, 1), 0x02 | 0x02 << 2 | 0x03 << 4);

    /* special ids: transam answers without the log */
    clog = tdb_clog_open(dd, NULL);
    expect_true(tdb_transam_did_commit(clog, BootstrapTransactionId));
    expect_true(tdb_transam_did_commit(clog, FrozenTransactionId));
    expect_false(tdb_transam_did_commit(clog, InvalidTransactionId));
    expect_true(tdb_transam_did_abort(clog, InvalidTransactionId));
    expect_false(tdb_transam_did_abort(clog, FrozenTransactionId));
    expect_true(tdb_transam_did_commit(clog, 3));
    expect_false(tdb_transam_did_abort(clog, 3));
    expect_true(tdb_transam_did_abort(clog, 4));
    expect_false(tdb_transam_did_commit(clog, 6)); /* subcommitted: no */
    expect_false(tdb_transam_did_commit(clog, 7));
    expect_false(tdb_transam_did_abort(clog, 7));
    expect_error(tdb_clog_set_status(clog, FrozenTransactionId,
                                     TRANSACTION_STATUS_COMMITTED),
                 ERRCODE_INTERNAL_ERROR, "special transaction ID 2");
    expect_error(tdb_clog_set_status(clog, 3, 4), ERRCODE_INTERNAL_ERROR,
                 "invalid transaction status 4");
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

/* The ids around the boundaries, ascending, and a status for each. */
static const TransactionId boundary_xids[] = {
    3,
    4,
    XACTS_PER_PAGE - 1,
    XACTS_PER_PAGE,
    XACTS_PER_PAGE + 1,
    2 * XACTS_PER_PAGE - 1,
    2 * XACTS_PER_PAGE,
    XACTS_PER_SEG - 2,
    XACTS_PER_SEG - 1,
    XACTS_PER_SEG,
    XACTS_PER_SEG + 1,
    XACTS_PER_SEG + XACTS_PER_PAGE,
    3 * XACTS_PER_SEG + 5,
};

static XidStatus
boundary_status(Size i)
{
    return (XidStatus)(1 + i % 3); /* committed, aborted, subcommitted */
}

TEST_BEGIN(test_boundaries)
{
    DataDir *dd = new_datadir();
    Clog *clog = tdb_clog_open(dd, NULL);
    char path[1024];

    for (Size i = 0; i < lengthof(boundary_xids); i++) {
        tdb_clog_extend(clog, boundary_xids[i]);
        tdb_clog_set_status(clog, boundary_xids[i], boundary_status(i));
    }
    for (Size i = 0; i < lengthof(boundary_xids); i++) {
        TransactionId xid = boundary_xids[i];

        expect_int_eq(tdb_clog_get_status(clog, xid), boundary_status(i));
        /* the neighbours that were never set */
        if (i + 1 < lengthof(boundary_xids) && boundary_xids[i + 1] != xid + 1)
            expect_int_eq(tdb_clog_get_status(clog, xid + 1),
                          TRANSACTION_STATUS_IN_PROGRESS);
    }
    expect_str_eq(
        tdb_clog_segment_path(clog, XACTS_PER_SEG - 1, path, sizeof(path)),
        xact_file(dd, "0000"));
    expect_str_eq(
        tdb_clog_segment_path(clog, XACTS_PER_SEG, path, sizeof(path)),
        xact_file(dd, "0001"));
    expect_str_eq(tdb_clog_segment_path(clog, 0xFFFFFFFF, path, sizeof(path)),
                  xact_file(dd, "0FFF"));
    tdb_clog_close(clog);

    /* where the bytes are */
    expect_int_eq(file_byte(xact_file(dd, "0000"), BLCKSZ),
                  boundary_status(3) | boundary_status(4) << 2); /* 32768 */
    expect_int_eq(file_byte(xact_file(dd, "0000"), BLCKSZ - 1),
                  boundary_status(2) << 6); /* xid 32767 */
    expect_int_eq(file_byte(xact_file(dd, "0000"), 31L * BLCKSZ + BLCKSZ - 1),
                  boundary_status(7) << 4 | boundary_status(8) << 6);
    expect_int_eq(file_byte(xact_file(dd, "0001"), 0),
                  boundary_status(9) | boundary_status(10) << 2);
    expect_int_eq(file_byte(xact_file(dd, "0001"), BLCKSZ),
                  boundary_status(11));
    expect_int_eq(file_byte(xact_file(dd, "0003"), 1),
                  boundary_status(12) << 2); /* xid 3*2^20 + 5 */
    /* extending reserved every page up to the last id, zeroed */
    expect_int_eq(file_size(xact_file(dd, "0002")), 32L * BLCKSZ);
    expect_int_eq(file_byte(xact_file(dd, "0002"), 5L * BLCKSZ + 7), 0);

    /* reopen: the control file still says next xid 3 (no manager here),
     * so the log reads pages as they are */
    clog = tdb_clog_open(dd, NULL);
    for (Size i = 0; i < lengthof(boundary_xids); i++)
        expect_int_eq(tdb_clog_get_status(clog, boundary_xids[i]),
                      boundary_status(i));
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

#define MODEL_PAGES 40
#define MODEL_XIDS ((uint32)MODEL_PAGES * CLOG_XACTS_PER_PAGE)

TEST_BEGIN(test_random_model)
{
    DataDir *dd = new_datadir();
    uint64 seed = tdb_test_seed();
    uint8 *model = tdb_palloc0(MODEL_XIDS);
    int nwrong = 0;
    Clog *clog;

    /* ids up to MODEL_XIDS may be handed out, as the manager lets them */
    clog = tdb_clog_open(dd, NULL);
    tdb_clog_reserve(clog, MODEL_XIDS);
    tdb_datadir_set_next_xid(dd, MODEL_XIDS);
    for (int op = 0; op < 6000; op++) {
        TransactionId xid =
            3 + (TransactionId)(tdb_test_rand(&seed) % (MODEL_XIDS - 3));
        uint64 r = tdb_test_rand(&seed);

        if (r % 3 == 0) {
            if ((XidStatus)model[xid] != tdb_clog_get_status(clog, xid))
                nwrong++;
        } else {
            XidStatus status = (XidStatus)((r >> 8) % 4);

            if (r % 17 == 1)
                tdb_clog_set_status_durable(clog, xid, status);
            else
                tdb_clog_set_status(clog, xid, status);
            model[xid] = (uint8)status;
        }
    }
    expect_int_eq(nwrong, 0);
    tdb_clog_close(clog);

    clog = tdb_clog_open(dd, NULL);
    for (TransactionId xid = 3; xid < MODEL_XIDS; xid += 7)
        if ((XidStatus)model[xid] != tdb_clog_get_status(clog, xid))
            nwrong++;
    for (TransactionId xid = 3; xid < MODEL_XIDS; xid++)
        if (model[xid] != 0 &&
            (XidStatus)model[xid] != tdb_clog_get_status(clog, xid))
            nwrong++;
    expect_int_eq(nwrong, 0);
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_missing_pages)
{
    DataDir *dd = new_datadir();
    Clog *clog = tdb_clog_open(dd, NULL);
    char *seg0 = xact_file(dd, "0000"), *seg1 = xact_file(dd, "0001");
    const TransactionId late = XACTS_PER_SEG + 10; /* in segment 0001 */
    ErrorData e;

    /* nothing reserved: a page never written reads as zeros */
    expect_int_eq(tdb_clog_get_status(clog, 100),
                  TRANSACTION_STATUS_IN_PROGRESS);
    expect_false(file_exists(seg0));

    /* reserving writes the pages, before any id of theirs is handed out */
    tdb_clog_reserve(clog, 1027);
    expect_int_eq(file_size(seg0), BLCKSZ);
    tdb_clog_extend(clog, 3);
    tdb_clog_set_status_durable(clog, 3, TRANSACTION_STATUS_COMMITTED);
    /* the next page was never reserved: zeros, not an error */
    expect_int_eq(tdb_clog_get_status(clog, XACTS_PER_PAGE + 5),
                  TRANSACTION_STATUS_IN_PROGRESS);
    expect_int_eq(file_size(seg0), BLCKSZ);
    /* a jump over a segment writes every page on the way */
    tdb_clog_extend(clog, late);
    tdb_clog_set_status_durable(clog, late, TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(file_size(seg0), 32L * BLCKSZ);
    expect_int_eq(file_size(seg1), BLCKSZ);
    tdb_clog_close(clog);
    tdb_datadir_set_next_xid(dd, late + 1); /* what the manager stores */

    clog = tdb_clog_open(dd, NULL);
    expect_int_eq(tdb_clog_get_status(clog, 3), TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, late),
                  TRANSACTION_STATUS_COMMITTED);
    /* past the next xid: never written, zeros */
    expect_int_eq(tdb_clog_get_status(clog, late + XACTS_PER_PAGE),
                  TRANSACTION_STATUS_IN_PROGRESS);
    tdb_clog_close(clog);

    /* an old segment deleted: the open works (it reads the newest page),
     * then asking about an old id fails -- never "aborted" */
    expect_int_eq(rename(seg0, test_sprintf("%s.saved", seg0)), 0);
    clog = tdb_clog_open(dd, NULL);
    expect_error(tdb_clog_get_status(clog, 3), ERRCODE_UNDEFINED_FILE,
                 "could not access status of transaction 3");
    expect_str_eq(tdb_test_last_error.detail,
                  test_sprintf("Could not open file \"%s\": No such file or "
                               "directory.",
                               seg0));
    /* and again: nothing was cached */
    expect_error(tdb_clog_get_status(clog, 3), ERRCODE_UNDEFINED_FILE,
                 "could not access status of transaction 3");
    tdb_clog_close(clog);
    expect_int_eq(rename(test_sprintf("%s.saved", seg0), seg0), 0);

    /* the segment of the newest ids deleted: the open fails, as
     * PostgreSQL's startup does */
    expect_int_eq(rename(seg1, test_sprintf("%s.saved", seg1)), 0);
    expect_true(try_open(dd, &e) == NULL);
    expect_int_eq(e.sqlerrcode, ERRCODE_UNDEFINED_FILE);
    expect_str_eq(
        e.message,
        test_sprintf("could not access status of transaction %u", late));
    expect_str_eq(e.detail,
                  test_sprintf("Could not open file \"%s\": No such file or "
                               "directory.",
                               seg1));
    expect_int_eq(rename(test_sprintf("%s.saved", seg1), seg1), 0);

    /* a short segment: XX000 "read too few bytes", PostgreSQL's report */
    expect_int_eq(truncate(seg0, 100), 0);
    clog = tdb_clog_open(dd, NULL);
    expect_error(tdb_clog_get_status(clog, 3), ERRCODE_INTERNAL_ERROR,
                 "could not access status of transaction 3");
    expect_str_eq(tdb_test_last_error.detail,
                  test_sprintf("Could not read from file \"%s\" at offset 0: "
                               "read too few bytes.",
                               seg0));
    expect_error(tdb_clog_get_status(clog, 5L * XACTS_PER_PAGE),
                 ERRCODE_INTERNAL_ERROR,
                 "could not access status of transaction 163840");
    expect_str_contains(tdb_test_last_error.detail, "at offset 40960:");
    tdb_clog_close(clog);
    expect_int_eq(file_size(seg0), 100); /* nothing wrote over it */
    expect_int_eq(truncate(seg1, 0), 0);
    expect_true(try_open(dd, &e) == NULL);
    expect_int_eq(e.sqlerrcode, ERRCODE_INTERNAL_ERROR);
    expect_str_contains(e.detail, "read too few bytes");

    /* the whole pg_xact gone: the open fails, and makes no new one */
    expect_int_eq(unlink(seg0), 0);
    expect_int_eq(unlink(seg1), 0);
    expect_int_eq(rmdir(test_path(tdb_datadir_path(dd), CLOG_DIR)), 0);
    expect_true(try_open(dd, &e) == NULL);
    expect_int_eq(e.sqlerrcode, ERRCODE_UNDEFINED_FILE);
    expect_false(file_exists(test_path(tdb_datadir_path(dd), CLOG_DIR)));
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_restart_mid_page)
{
    DataDir *dd = new_datadir();
    Clog *clog = tdb_clog_open(dd, NULL);
    const TransactionId next = 2 * XACTS_PER_SEG + 100;

    /* a "crash" after the manager reserved ids up to next: the pages
     * exist, the control file says next */
    tdb_clog_reserve(clog, next);
    tdb_clog_extend(clog, next - 50);
    tdb_clog_set_status_durable(clog, next - 50, TRANSACTION_STATUS_COMMITTED);
    tdb_clog_close(clog);
    tdb_datadir_set_next_xid(dd, next);

    clog = tdb_clog_open(dd, NULL);
    expect_int_eq(tdb_clog_get_status(clog, next - 50),
                  TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, next - 49),
                  TRANSACTION_STATUS_IN_PROGRESS);
    /* extending mid-page (a restart) keeps what the file holds */
    tdb_clog_extend(clog, next);
    tdb_clog_set_status(clog, next, TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, next - 50),
                  TRANSACTION_STATUS_COMMITTED);
    tdb_clog_close(clog);
    expect_int_eq(file_size(xact_file(dd, "0002")), BLCKSZ);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_wraparound)
{
    DataDir *dd = new_datadir();
    Clog *clog = tdb_clog_open(dd, NULL);
    TransactionId last = MaxTransactionId;

    /* the previous epoch left statuses on page 0 */
    tdb_clog_extend(clog, 3);
    tdb_clog_extend(clog, 10);
    tdb_clog_set_status_durable(clog, 10, TRANSACTION_STATUS_COMMITTED);
    tdb_clog_close(clog);

    jump_next_xid(dd, 0xFFFFFF00);
    clog = tdb_clog_open(dd, NULL);
    expect_int_eq(tdb_clog_get_status(clog, 10), TRANSACTION_STATUS_COMMITTED);
    tdb_clog_extend(clog, 0xFFFFFFF0);
    tdb_clog_set_status_durable(clog, 0xFFFFFFF0, TRANSACTION_STATUS_ABORTED);
    tdb_clog_extend(clog, last);
    tdb_clog_set_status_durable(clog, last, TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(file_size(xact_file(dd, "0FFF")), 32L * BLCKSZ);
    expect_int_eq(file_byte(xact_file(dd, "0FFF"), 32L * BLCKSZ - 1),
                  TRANSACTION_STATUS_COMMITTED << 6);

    /* after 0xFFFFFFFF comes 3: page 0 starts afresh */
    TransactionIdAdvance(&last);
    expect_u64_eq(last, FirstNormalTransactionId);
    tdb_clog_extend(clog, last);
    expect_int_eq(tdb_clog_get_status(clog, 10),
                  TRANSACTION_STATUS_IN_PROGRESS);
    tdb_clog_set_status_durable(clog, 3, TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(file_byte(xact_file(dd, "0000"), 2), 0); /* xid 10 */
    expect_int_eq(tdb_clog_get_status(clog, 0xFFFFFFF0),
                  TRANSACTION_STATUS_ABORTED);
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_durable_fsync)
{
    DataDir *dd;
    Clog *clog;
    uint64 before;
    ErrorData e;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    clog = tdb_clog_open(dd, NULL);
    /* reserving xid 3 makes page 0 durable, and its segment's name */
    before = tdb_fd_op_count(FD_OP_FSYNC);
    tdb_clog_extend(clog, 3);
    expect_u64_eq(tdb_fd_op_count(FD_OP_FSYNC) - before, 2);
    tdb_clog_extend(clog, 4);

    /* a cached change does no I/O at all */
    before = tdb_fd_op_count(FD_OP_FSYNC) + tdb_fd_op_count(FD_OP_WRITE);
    tdb_clog_set_status(clog, 4, TRANSACTION_STATUS_ABORTED);
    expect_u64_eq(tdb_fd_op_count(FD_OP_FSYNC) + tdb_fd_op_count(FD_OP_WRITE),
                  before);

    /* the first durable write fails at its fsync: not committed */
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_true(set_durable_raised(clog, 3, TRANSACTION_STATUS_COMMITTED, &e));
    expect_int_eq(e.sqlerrcode, ERRCODE_IO_ERROR);
    expect_str_eq(e.message, "could not access status of transaction 3");
    expect_str_eq(e.detail,
                  test_sprintf("Could not fsync file \"%s\": Input/output "
                               "error.",
                               xact_file(dd, "0000")));
    expect_int_eq(tdb_clog_get_status(clog, 3), TRANSACTION_STATUS_IN_PROGRESS);
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);

    /* the retry fsyncs the file (pg_xact was, at the reservation) */
    before = tdb_fd_op_count(FD_OP_FSYNC);
    tdb_clog_set_status_durable(clog, 3, TRANSACTION_STATUS_COMMITTED);
    expect_u64_eq(tdb_fd_op_count(FD_OP_FSYNC) - before, 1);
    expect_int_eq(tdb_clog_get_status(clog, 3), TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(file_byte(xact_file(dd, "0000"), 0), 0x01 << 6);
    expect_int_eq(file_byte(xact_file(dd, "0000"), 1), 0x02); /* xid 4 too */

    /* later durable writes: exactly one fsync each */
    tdb_clog_extend(clog, 5);
    before = tdb_fd_op_count(FD_OP_FSYNC);
    tdb_clog_set_status_durable(clog, 5, TRANSACTION_STATUS_COMMITTED);
    expect_u64_eq(tdb_fd_op_count(FD_OP_FSYNC) - before, 1);

    /* the page is clean now: close writes nothing */
    before = tdb_fd_op_count(FD_OP_WRITE);
    tdb_clog_close(clog);
    expect_u64_eq(tdb_fd_op_count(FD_OP_WRITE), before);
    tdb_datadir_close(dd);
}
TEST_END

typedef struct Fault {
    FdOp op;
    int err;
} Fault;

TEST_BEGIN(test_durable_fault_loop)
{
    static const Fault faults[] = {
        {FD_OP_OPEN, EMFILE},
        {FD_OP_WRITE, ENOSPC},
        {FD_OP_WRITE, FD_FAULT_SHORT},
        {FD_OP_WRITE, EIO},
        {FD_OP_FSYNC, EIO},
        {FD_OP_CLOSE, EIO},
    };
    DataDir *dd;
    Clog *clog;
    TransactionId xid = 3;
    int nfailures = 0;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    clog = tdb_clog_open(dd, NULL);
    for (Size i = 0; i < lengthof(faults); i++) {
        for (uint32 n = 1;; n++) {
            ErrorData e;
            bool extended, ok;
            int pending;

            /* what the manager and a commit do for an id on a new page,
             * often in a new segment: reserve it (write the page, fsync
             * it and pg_xact), then write its status durably */
            xid += XACTS_PER_SEG / 2 + 1;
            expect_true(tdb_fd_inject(faults[i].op, n, faults[i].err));
            extended = !extend_raised(clog, xid, &e);
            ok = extended && !set_durable_raised(
                                 clog, xid, TRANSACTION_STATUS_COMMITTED, &e);
            pending = tdb_fd_inject_pending();
            tdb_fd_inject_clear();
            if (ok) {
                expect_int_eq(tdb_clog_get_status(clog, xid),
                              TRANSACTION_STATUS_COMMITTED);
                if (pending > 0)
                    break; /* the nth call never came */
                continue;  /* a short write: the wrapper retried */
            }
            nfailures++;
            expect_str_contains(e.message, "could not access status");
            /* a failed reservation reserved nothing: the retry writes the
             * pages again */
            if (!extended)
                tdb_clog_extend(clog, xid);
            expect_int_eq(tdb_clog_get_status(clog, xid),
                          TRANSACTION_STATUS_IN_PROGRESS);
            /* what the caller does next: record another status */
            tdb_clog_set_status_durable(clog, xid, TRANSACTION_STATUS_ABORTED);
            expect_int_eq(tdb_clog_get_status(clog, xid),
                          TRANSACTION_STATUS_ABORTED);
        }
    }
    expect_true(nfailures >= 5);
    tdb_clog_close(clog);
    tdb_datadir_set_next_xid(dd, xid + 1); /* what the manager stores */

    /* every status reached the files, and every page of a reserved id is
     * there */
    clog = tdb_clog_open(dd, NULL);
    for (TransactionId x = 3 + XACTS_PER_SEG / 2 + 1; x <= xid;
         x += XACTS_PER_SEG / 2 + 1)
        expect_true(tdb_clog_get_status(clog, x) !=
                    TRANSACTION_STATUS_IN_PROGRESS);
    /* (offset 1000 in each page: no id the loop used) */
    for (TransactionId x = 1000; TransactionIdPrecedes(x, xid);
         x += XACTS_PER_PAGE)
        expect_int_eq(tdb_clog_get_status(clog, x),
                      TRANSACTION_STATUS_IN_PROGRESS);
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_read_and_evict_faults)
{
    DataDir *dd;
    Clog *clog;
    const TransactionId npages = CLOG_NUM_BUFFERS + 1;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    clog = tdb_clog_open(dd, NULL);
    tdb_clog_reserve(clog, npages * XACTS_PER_PAGE);
    tdb_datadir_set_next_xid(dd, npages * XACTS_PER_PAGE);

    /* fill the cache with changed pages 0 .. 15 */
    for (TransactionId p = 0; p < CLOG_NUM_BUFFERS; p++)
        tdb_clog_set_status(clog, p * XACTS_PER_PAGE + 7,
                            TRANSACTION_STATUS_COMMITTED);
    /* page 16 evicts page 0, whose write-back fails */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    expect_error(tdb_clog_get_status(clog, 16 * XACTS_PER_PAGE + 7),
                 ERRCODE_DISK_FULL,
                 "could not access status of transaction 524295");
    expect_str_contains(tdb_test_last_error.detail, "Could not write to file");
    expect_str_contains(tdb_test_last_error.detail, "at offset 0:");
    tdb_fd_inject_clear();
    /* nothing lost; the retry evicts and succeeds */
    expect_int_eq(tdb_clog_get_status(clog, 7), TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, 16 * XACTS_PER_PAGE + 7),
                  TRANSACTION_STATUS_IN_PROGRESS);

    /* a failed read of an evicted page */
    tdb_clog_flush(clog);
    for (TransactionId p = 0; p < npages; p++)
        (void)tdb_clog_get_status(clog, p * XACTS_PER_PAGE + 8);
    expect_true(tdb_fd_inject(FD_OP_READ, 1, EIO));
    expect_error(tdb_clog_get_status(clog, 7), ERRCODE_IO_ERROR,
                 "could not access status of transaction 7");
    expect_str_eq(tdb_test_last_error.detail,
                  test_sprintf("Could not read from file \"%s\" at offset "
                               "0: Input/output error.",
                               xact_file(dd, "0000")));
    tdb_fd_inject_clear();
    expect_int_eq(tdb_clog_get_status(clog, 7), TRANSACTION_STATUS_COMMITTED);

    /* a failed flush at close keeps the handle; the retry closes it */
    tdb_clog_set_status(clog, 9, TRANSACTION_STATUS_ABORTED);
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_error(tdb_clog_close(clog), ERRCODE_IO_ERROR,
                 "could not access status");
    tdb_fd_inject_clear();
    tdb_clog_close(clog);
    clog = tdb_clog_open(dd, NULL);
    for (TransactionId p = 0; p < CLOG_NUM_BUFFERS; p++)
        expect_int_eq(tdb_clog_get_status(clog, p * XACTS_PER_PAGE + 7),
                      TRANSACTION_STATUS_COMMITTED);
    expect_int_eq(tdb_clog_get_status(clog, 9), TRANSACTION_STATUS_ABORTED);
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_noerror)
{
    DataDir *dd;
    Clog *clog;
    NoticeCapture cap;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    clog = tdb_clog_open(dd, NULL);
    tdb_clog_extend(clog, 3);
    expect_true(
        tdb_clog_set_status_noerror(clog, 3, TRANSACTION_STATUS_ABORTED, true));
    expect_int_eq(file_byte(xact_file(dd, "0000"), 0), 0x02 << 6);

    /* a failed durable write warns; the status stays cached and changed */
    tdb_clog_extend(clog, 4);
    notice_capture_begin(&cap);
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_false(
        tdb_clog_set_status_noerror(clog, 4, TRANSACTION_STATUS_ABORTED, true));
    tdb_fd_inject_clear();
    notice_capture_end(&cap);
    expect_int_eq(cap.nwarnings, 1);
    expect_str_eq(cap.last, "could not access status of transaction 4");
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);
    tdb_clog_close(clog);
    clog = tdb_clog_open(dd, NULL);
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);
    tdb_clog_close(clog);
    tdb_datadir_close(dd);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_clog", TEST_CASE(test_byte_layout),
        TEST_CASE(test_boundaries), TEST_CASE(test_random_model),
        TEST_CASE(test_missing_pages), TEST_CASE(test_restart_mid_page),
        TEST_CASE(test_wraparound), TEST_CASE(test_durable_fsync),
        TEST_CASE(test_durable_fault_loop),
        TEST_CASE(test_read_and_evict_faults), TEST_CASE(test_noerror));
}
